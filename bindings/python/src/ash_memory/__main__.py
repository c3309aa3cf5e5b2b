"""`python -m ash_memory`: prints the component this package loads and its sha256."""

from . import component_path, component_sha256

print(f"{component_path()}  sha256 {component_sha256()}")
