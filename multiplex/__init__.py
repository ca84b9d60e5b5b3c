"""The multiplex: one game played live in many halls (centres), one ranking, kept on a
hub (docs/rules.md#multiplex). An app above the domain: its models, the hub's and the
centres' services, their API, console pages and commands."""
