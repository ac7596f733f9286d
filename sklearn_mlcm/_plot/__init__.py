"""Displays: the MLCM display and the shared matplotlib support check."""
