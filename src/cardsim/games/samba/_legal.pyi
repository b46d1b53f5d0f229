# Typed surface of cardsim.games.samba._legal (the meld phase's legal-move generation and vt.legal; C-level only): no Python-level names.
