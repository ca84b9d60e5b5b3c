"""The rooms people use, above the domain: the arbitrator's console, the players' phone
page, the hall's projector and live stream (views), and the arbitrator's terminal commands
(management/commands). A peer of ``api``: neither imports the other."""
