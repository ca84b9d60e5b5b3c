"""Printing a sheet in a worker: the layout of a 300-player event takes a second or two."""

from __future__ import annotations

from celery import shared_task


@shared_task(acks_late=True)
def sheet_print_task(sheet_id: int) -> None:
    from scoring.services import sheet_print

    sheet_print(sheet_id=sheet_id)
