"""Printed result sheets (ReportLab): one base class, one story per sheet. The renderers
return PDF bytes and know nothing of HTTP or Celery."""
