"""A tiny package measured by coverage.py for Plumb's Cobertura fixture."""

from .area import area
