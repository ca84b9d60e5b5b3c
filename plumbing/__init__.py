"""The web plumbing the front-ends share, below them and below the site (``arbiter``): the
time a request reached the server and the caller's address, the login limits, the server
error's page, the data folder kept private. Django only: no domain, no front-end."""
