"""Slip adjudication, standings and printed sheets: arrives with the event issue."""
