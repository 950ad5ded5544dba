"""purepca.files: the one door every command writes files through (what other tests do not cover)."""

from __future__ import annotations

from pathlib import Path

import pytest


def test_files_folder_targets_refuses_what_is_not_a_file_name_in_the_folder(tmp_path: Path) -> None:
    from purepca.errors import PurePCAError
    from purepca.files import folder_targets

    for name in ("../x.json", "/etc/passwd", "a/b.json", ".", ".."):
        with pytest.raises(PurePCAError, match="is not a file name in the folder"):
            folder_targets(str(tmp_path), [name])
    with pytest.raises(PurePCAError, match="names must be a list of file names"):
        folder_targets(str(tmp_path), "a.json")
    with pytest.raises(PurePCAError, match="folder must be a directory's path"):
        folder_targets(None, ["a.json"])  # type: ignore[arg-type]
    (tmp_path / "real.json").write_text("{}")
    (tmp_path / "link.json").symlink_to(tmp_path / "real.json")
    with pytest.raises(PurePCAError, match=r"link.json: is a symbolic link .*the golden cases is written"):
        folder_targets(str(tmp_path), ["real.json", "link.json"], "the golden cases")
    assert folder_targets(str(tmp_path), ["real.json", "new.json"]) == [str(tmp_path / "real.json"),
                                                                          str(tmp_path / "new.json")]
