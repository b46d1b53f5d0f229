"""One public module per game: options, presets, rule oracles. Compiled kernels live in the
`_<game>` extension modules beside them."""
