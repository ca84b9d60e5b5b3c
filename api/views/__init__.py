"""Endpoints nested under the event, one module per resource. Every write goes through a
service."""
