"""Named spans of a request's time (config/timing.py)."""

from __future__ import annotations

from config import timing


def test_a_span_outside_a_record_records_nothing():
    with timing.span("embed"):
        pass

    assert timing.current() is None


def test_spans_of_one_name_add_up_inside_a_record():
    with timing.recording() as record:
        with timing.span("embed"):
            pass
        with timing.span("embed"):
            pass
        assert timing.current() is record

    assert list(record.spans) == ["embed"]
    assert record.spans["embed"][1] == 2
    assert record.spans["embed"][0] >= 0
    assert timing.current() is None


def test_a_span_is_recorded_when_its_block_raises():
    with timing.recording() as record:
        try:
            with timing.span("embed"):
                raise ValueError("boom")
        except ValueError:
            pass

    assert record.spans["embed"][1] == 1
