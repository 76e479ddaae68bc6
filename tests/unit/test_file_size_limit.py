"""Input is bounded: a file read from a path or a file object goes on past RANKWISE_MAX_FILE_MB (MiB) at most."""
from __future__ import annotations

import errno
import io
import os

import pytest

from components.cli import main
from components.formats import decode
from tests.unit.file_readers import read_run

RUN = b"q1 Q0 d1 1 2.5 r\n"


def test_a_file_past_the_limit_is_refused_naming_the_file_the_limit_and_the_setting(tmp_path, monkeypatch):
    monkeypatch.setenv("RANKWISE_MAX_FILE_MB", "1")
    run = tmp_path / "big.run"
    run.write_bytes(b"".join(b"q1 Q0 d%d 1 2.5 r\n" % i for i in range(70_000)))  # 1.2 MiB
    with pytest.raises(decode.FileTooLargeError) as caught:
        read_run(run)
    err = caught.value
    assert (err.errno, err.filename) == (errno.EFBIG, str(run))
    assert err.strerror == ("larger than 1 MiB, the most a file may hold here; "
                            "set RANKWISE_MAX_FILE_MB to a larger number of MiB to read it")
    monkeypatch.setenv("RANKWISE_MAX_FILE_MB", "2")
    assert read_run(run).docids.size == 70_000


@pytest.mark.parametrize("kind", ["stream", "text"])
def test_a_file_object_is_read_up_to_the_limit_only(monkeypatch, kind):
    monkeypatch.setenv("RANKWISE_MAX_FILE_MB", "1")
    big = RUN * 70_000
    source = io.BytesIO(big) if kind == "stream" else io.StringIO(big.decode())
    with pytest.raises(decode.FileTooLargeError):
        decode.read_source(source, "upload.run")
    assert source.tell() <= 2**20 + 1  # not read to its end
    small = io.BytesIO(RUN) if kind == "stream" else io.StringIO(RUN.decode())
    assert decode.read_source(small) == (RUN, "file")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_device_without_end_is_refused_once_past_the_limit(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("RANKWISE_MAX_FILE_MB", "4")
    qrels = tmp_path / "q.qrels"
    qrels.write_text("q1 0 d1 1\n")
    assert main(["eval", str(qrels), "/dev/zero"]) == 1  # st_size is 0: read with the cap
    assert capsys.readouterr().err == ("error: cannot read /dev/zero: larger than 4 MiB, the most a file may hold "
                                       "here; set RANKWISE_MAX_FILE_MB to a larger number of MiB to read it\n")


@pytest.mark.parametrize("value", ["", "lots", "0", "-5"])
def test_a_setting_that_is_not_a_whole_number_of_mib_from_1_is_ignored(monkeypatch, value):
    monkeypatch.setenv("RANKWISE_MAX_FILE_MB", value)
    assert decode.max_file_bytes() == decode.DEFAULT_MAX_FILE_MB * 2**20
