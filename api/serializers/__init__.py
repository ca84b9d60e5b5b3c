"""The API's input and output shapes, a module per group of endpoints as in :mod:`api.views`
(``base``: what they share). Outputs never carry the join code or the random seed. A
caller imports a serializer from its module: this package re-exports nothing."""
