"""Copies the policy component and the embedded model into the package when a wheel or
sdist is built. The component comes from `$ASH_COMPONENT` if set, else from the workspace's
`../../target/ash_memory_policy.wasm` (written by the Rust build, or by `ash-memory component
--out FILE`); the model from `../../host/model`, the files the Rust binary embeds. Neither
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
        target = root / "src" / "ash_memory" / "ash_memory_policy.wasm"
        env = os.environ.get("ASH_COMPONENT")
        source = Path(env) if env else root.parent.parent / "target" / "ash_memory_policy.wasm"
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
        for name in MODEL_FILES:
            if (shared / name).is_file():
                model.mkdir(exist_ok=True)
                if not (model / name).exists() or (model / name).read_bytes() != (shared / name).read_bytes():
                    shutil.copyfile(shared / name, model / name)
            elif not (model / name).is_file():
                raise RuntimeError(f"no {name} at {shared}: build from the ash-memory repository")


#: The embedded model: the three files the Rust host embeds, and their licence notice.
MODEL_FILES = ("tokenizer.json", "model.safetensors", "config.json", "NOTICE")
