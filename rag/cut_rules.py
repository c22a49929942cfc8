"""The shape of a relevance cut in the live settings: its parameters and the range of each.

Kept apart from rag/relevance.py, which reads the settings rows (rag.models), so that
``RagSettings.clean`` (rag/models.py) can check a stored value without importing it back.
"""

from __future__ import annotations

GATE_RANGE = (-1.0, 1.0)
RATIO_RANGE = (-2.0, 1.0)
DEPTH_RANGE = (0.0, 2.0)
POOL_Z_RANGE = (-5.0, 5.0)  # standard deviations above the pool's mean (rag.relevance)
# Best-hit margin asked per unit of intent margin past the intent gate (rag.relevance).
SLOPE_RANGE = (0.0, 100.0)
# The optional parameters of a surface's cut and the range each must fall in (gate is required).
OPTIONAL_PARAMETERS = {
    "ratio": RATIO_RANGE,
    "bareRatio": RATIO_RANGE,
    "depth": DEPTH_RANGE,
    "bareDepth": DEPTH_RANGE,
    "bareGate": GATE_RANGE,
    "foreignGate": GATE_RANGE,
    "intentGate": GATE_RANGE,
    "intentClose": GATE_RANGE,
    "intentSlope": SLOPE_RANGE,
    "poolZ": POOL_Z_RANGE,
    "poolZEvidence": POOL_Z_RANGE,
}


def _bad_number(value, bounds) -> bool:
    """Return whether ``value`` is set and is not a number within ``bounds``."""
    return value is not None and (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not bounds[0] <= value <= bounds[1]
    )


def validate_cuts(value) -> str | None:
    """Return an error message for a malformed ``relevance_cuts`` value, or None."""
    if not isinstance(value, dict):
        return "Use an object keyed by provider:model@dimensions."
    for key, surfaces in value.items():
        if not isinstance(surfaces, dict):
            return f"{key}: use an object keyed by surface."
        for surface, params in surfaces.items():
            if not isinstance(params, dict) or "gate" not in params:
                return f"{key}.{surface}: use an object with gate and ratio."
            gate = params.get("gate")
            if isinstance(gate, bool) or not isinstance(gate, int | float):
                return f"{key}.{surface}.gate: use a number."
            if not GATE_RANGE[0] <= gate <= GATE_RANGE[1]:
                return f"{key}.{surface}.gate: use a number from -1 to 1."
            for name, bounds in OPTIONAL_PARAMETERS.items():
                if _bad_number(params.get(name), bounds):
                    low, high = (f"{bound:g}" for bound in bounds)
                    return f"{key}.{surface}.{name}: use null or a number from {low} to {high}."
    return None
