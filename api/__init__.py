"""The REST API: resources nested under the event, arbitrator and per-event player tokens."""
