# Gleek's face: the spec (config owner) other modules may cimport. The state struct and its
# kernels are in _gleek_state.pxd, the config and the pure rules in _gleek_rules.pxd.
from cardsim.core._engine cimport GameSpec
from cardsim.games._gleek_rules cimport GLConfig

cdef class GleekSpec(GameSpec):
    cdef GLConfig c              # the resolved options as C values (vtable's cfg points here)
