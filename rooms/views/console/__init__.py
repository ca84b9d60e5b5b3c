"""The arbitrator's console: set up the event, run each round, review and correct.

Every action is a POST form that works without JavaScript (post, then redirect back to
the round page with a message); with htmx the paper slip entry and its Try Move preview
update in place, and the round page refreshes itself when something changes."""
