import pytest

from relaykit.bench.relay.booker import ModelBooker, grounded
from relaykit.bench.relay.world import Goal
from relaykit.models import open_model


@pytest.mark.embedded_model
def test_embedded_model_books_through_the_schema() -> None:
    """The embedded model's answer is schema-valid (grammar-constrained); its quality is not tested."""
    goal = Goal(id="G1", persona="Ann, a nurse", budget=300, amenity="gym", max_distance_km=3.0, window="morning",
                cabin="economy")
    payload = ("Hotel H01: price 100 USD per night; distance 1.0 km; stars 3; amenities gym. H01 verdict: pass.\n"
               "Flight F01: departure window morning; cabin economy; price 150 USD. F01 verdict: pass.")
    booking = ModelBooker(open_model("local")).book(goal, payload, payload)
    assert booking.error is None and booking.model_calls >= 1
    assert booking.hotel_id == "NONE" or booking.hotel_id.startswith("H")
    assert booking.flight_id == "NONE" or booking.flight_id.startswith("F")
    assert grounded("H01", payload)
