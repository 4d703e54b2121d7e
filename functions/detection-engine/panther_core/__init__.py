"""The event classes detections import from the platform (`panther_core`)."""
