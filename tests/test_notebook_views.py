"""Notebook views: a State shows its position as HTML (hands, table, scores) through
cardsim.views.state_html; cardsim.VectorEnv is exported."""
import cardsim


def test_state_repr_html_shows_the_position():
    for game in cardsim.GAMES:
        st = cardsim.make(game).new_state(2, 0)
        page = st._repr_html_()
        assert page.startswith("<") and "<table" in page
        card = st.hand(st.current_player)[0]
        assert card[:-1] in page or card in page
        st2 = st.clone()
        assert st2._repr_html_() == page


def test_vector_env_is_exported():
    env = cardsim.VectorEnv("karnoffel", 2, seed=0)
    env.reset()
    assert env.obs.shape == (2, env.observation_size)
