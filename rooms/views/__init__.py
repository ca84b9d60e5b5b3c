"""The pages: the arbitrator's console, the player's phone page, the hall's projector
view, and the small endpoint they poll for changes. Thin: services write, selectors read."""
