"""Finding PHI: rule detectors, the transformer member, and the ensemble that combines them."""
