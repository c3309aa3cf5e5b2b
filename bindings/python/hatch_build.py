"""Copies the policy component and the embedded models into the package when a wheel or
sdist is built. The component comes from `$ASH_COMPONENT` if set, else from the workspace's
`../../target/ash_memory.wasm` (written by the Rust build, or by `ash-memory component
--out FILE`); the models from `../../host/model`, the files the Rust binary embeds, and the
transformer's encoder module from `$ASH_ENCODER` or beside the component
(`target/ash_memory_encoder.wasm`, written by the Rust build, or by `ash-memory component
--encoder --out FILE`). Neither
copy is kept in git; a build without a source fails with a message saying so, unless the
package already holds a copy (an sdist being built into a wheel)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class ComponentHook(BuildHookInterface):  # type: ignore[misc]
    """The build hook that brings the component in."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        target = root / "src" / "ash_memory" / "ash_memory.wasm"
        env = os.environ.get("ASH_COMPONENT")
        source = Path(env) if env else root.parent.parent / "target" / "ash_memory.wasm"
        if source.is_file():
            if not target.exists() or target.read_bytes() != source.read_bytes():
                shutil.copyfile(source, target)
        elif not target.is_file():
            raise RuntimeError(
                f"no policy component at {source}: build it (cargo build) or set ASH_COMPONENT "
                "to a copy (`ash-memory component --out FILE` writes one)"
            )
        model = root / "src" / "ash_memory" / "model"
        shared = root.parent.parent / "host" / "model"
        encoder = os.environ.get("ASH_ENCODER")
        copies = [(shared / name, name) for name in MODEL_FILES]
        copies += [(shared / "transformer" / name, f"transformer/{name}") for name in TRANSFORMER_FILES]
        copies.append((Path(encoder) if encoder else source.parent / "ash_memory_encoder.wasm", "transformer/encoder.wasm"))
        (model / "transformer").mkdir(parents=True, exist_ok=True)
        for source_file, name in copies:
            if source_file.is_file():
                if not (model / name).exists() or (model / name).read_bytes() != source_file.read_bytes():
                    shutil.copyfile(source_file, model / name)
            elif not (model / name).is_file():
                raise RuntimeError(f"no {source_file}: build from the ash-memory repository (cargo build writes the encoder)")


#: The embedded models: the files the Rust host embeds, and their licence notice.
MODEL_FILES = ("tokenizer.json", "model.safetensors", "config.json", "NOTICE")
TRANSFORMER_FILES = ("tokenizer.json", "model.safetensors")
