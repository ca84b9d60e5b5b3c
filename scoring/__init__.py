"""The duplicate rules, pure Python (no Django): a slip's adjudication, the standings and
the printed sheets' page layout, from plain values the domain hands in."""
