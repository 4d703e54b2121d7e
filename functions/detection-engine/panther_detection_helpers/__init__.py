"""The platform helpers detections import (`panther_detection_helpers.caching`)."""
