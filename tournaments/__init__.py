"""Events, players, games, rounds, draws and slips: arrives with the event issue."""
