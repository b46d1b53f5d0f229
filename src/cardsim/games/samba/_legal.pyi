# Typed surface of cardsim.games._samba_legal (the legal-move generation; C-level only).
