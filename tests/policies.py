"""Fixed policies the episode-bound tests play (issue 23): always the first legal action, always
the last, always pass when passing is legal, or uniform random. A live state with no legal
action fails the test (a dead end)."""


def policy_action(st, policy, rng, pass_action=None):
    """The action `policy` ("first" | "last" | "pass" | "random") takes in `st`; "pass" plays
    `pass_action` when it is legal and a random action otherwise. rng: a random.Random."""
    legal = st.legal_actions()
    assert len(legal), f"dead state: no legal action in a live state (phase {st.phase})"
    if policy == "first":
        return int(legal[0])
    if policy == "last":
        return int(legal[-1])
    if policy == "pass" and pass_action is not None and pass_action in legal:
        return int(pass_action)
    return int(legal[rng.randrange(len(legal))])


def play_out(st, policy, rng, bound, pass_action=None):
    """Play `st` to its end with `policy`; the number of actions, asserted to stay <= bound."""
    n = 0
    while not st.is_terminal():
        st.apply(policy_action(st, policy, rng, pass_action))
        n += 1
        assert n <= bound, f"{policy}: more than max_game_length = {bound} actions"
    return n
