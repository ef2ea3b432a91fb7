"""The tests' own Postgres and Redis (tests/server/services.py): they start on loopback,
answer, keep what was committed over a stop, a crash and a restart, and leave no process
and no folder behind.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from .services import (
    ENABLE,
    PostgresService,
    RedisService,
    _missing,
    alive,
    postgres_bindir,
    process_tree,
    redis_binary,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_advice_says_what_to_install() -> None:
    assert "apt-get install postgresql redis-server" in ENABLE


def test_missing_servers_skip_the_tests_with_the_advice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLETOP_REQUIRE_SERVICES", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install postgresql redis-server"):
        _missing(f"no redis-server found: {ENABLE}")


def test_missing_servers_fail_the_tests_where_ci_requires_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TABLETOP_REQUIRE_SERVICES", "1")
    with pytest.raises(pytest.fail.Exception, match="TABLETOP_REQUIRE_SERVICES=1 requires"):
        _missing(f"no redis-server found: {ENABLE}")


@pytest.mark.slow
def test_postgres_answers_on_loopback_with_fsync_on(postgres_service: PostgresService) -> None:
    postgres_service.start()  # an earlier test may have left it stopped
    assert (
        postgres_service.url == f"postgresql://postgres@127.0.0.1:{postgres_service.port}/postgres"
    )
    settings = postgres_service.sql(
        "SELECT current_setting('listen_addresses'), current_setting('fsync'), "
        "current_setting('max_connections'), current_user"
    )
    assert settings.split() == ["127.0.0.1|on|200|postgres"]


@pytest.mark.slow
def test_postgres_runs_as_an_unprivileged_user_when_the_tests_run_as_root(
    postgres_service: PostgresService,
) -> None:
    postgres_service.start()
    assert postgres_service.pid is not None
    owner = Path(f"/proc/{postgres_service.pid}").stat().st_uid
    if os.geteuid() == 0:
        assert owner == pwd.getpwnam("nobody").pw_uid
    else:
        assert owner == os.geteuid()


@pytest.mark.slow
def test_each_new_database_is_a_database_of_its_own(postgres_service: PostgresService) -> None:
    postgres_service.start()
    first = postgres_service.new_database("services_first")
    second = postgres_service.new_database("services_second")
    assert first.endswith(f":{postgres_service.port}/services_first")
    postgres_service.sql("CREATE TABLE kept (n integer)", "services_first")
    postgres_service.sql("CREATE TABLE kept (n text)", "services_second")  # no clash
    with pytest.raises(ValueError, match="a database name is"):
        postgres_service.new_database("Robert'); DROP TABLE students;--")
    assert second != first


@pytest.mark.slow
def test_postgres_keeps_what_was_committed_over_a_stop_and_a_crash(
    postgres_service: PostgresService,
) -> None:
    postgres_service.start()
    postgres_service.new_database("services_durable")
    postgres_service.sql(
        "CREATE TABLE moves (n integer); INSERT INTO moves VALUES (1)", "services_durable"
    )
    port = postgres_service.port
    postgres_service.stop()
    assert not postgres_service.running
    postgres_service.start()
    postgres_service.sql("INSERT INTO moves VALUES (2)", "services_durable")
    before = process_tree(postgres_service.pid or 0)
    assert len(before) > 1  # the postmaster and its background processes
    postgres_service.kill()
    assert alive(before) == []
    postgres_service.start()
    assert postgres_service.port == port
    assert postgres_service.sql("SELECT n FROM moves ORDER BY n", "services_durable").split() == [
        "1",
        "2",
    ]


@pytest.mark.slow
def test_redis_answers_and_restarts_empty_on_the_same_port(redis_service: RedisService) -> None:
    redis_service.start()
    port, pid = redis_service.port, redis_service.pid
    assert redis_service.url == f"redis://127.0.0.1:{port}/0"
    assert redis_service.command("SET", "k", "v") == b"+OK\r\n"
    redis_service.restart()
    assert (redis_service.port, redis_service.running) == (port, True)
    assert redis_service.pid != pid
    assert redis_service.command("GET", "k") == b"$-1\r\n"  # nothing saved
    redis_service.stop()
    with pytest.raises(ConnectionRefusedError):
        redis_service.command("PING")
    redis_service.start()
    assert redis_service.command("PING") == b"+PONG\r\n"


@pytest.mark.slow
def test_a_server_started_from_a_passing_thread_outlives_the_thread(
    redis_service: RedisService,
) -> None:
    redis_service.stop()
    starter = threading.Thread(target=redis_service.start)
    starter.start()
    starter.join()
    time.sleep(0.5)  # what a parent-death signal tied to that thread would have done by now
    assert redis_service.running
    assert redis_service.command("PING") == b"+PONG\r\n"


@pytest.mark.slow
def test_closed_services_leave_no_process_and_no_folder() -> None:
    if postgres_bindir() is None or redis_binary() is None:
        pytest.skip(ENABLE)
    with PostgresService() as postgres, RedisService() as redis:
        postgres.sql("SELECT 1")
        processes = process_tree(postgres.pid or 0) + process_tree(redis.pid or 0)
        folders = [postgres.folder, redis.folder]
        assert all(folder.is_dir() for folder in folders)
    assert alive(processes) == []
    assert not any(folder.exists() for folder in folders)


@pytest.mark.slow
def test_servers_die_with_the_process_that_started_them() -> None:
    if postgres_bindir() is None or redis_binary() is None:
        pytest.skip(ENABLE)
    script = (
        "from tests.server.services import PostgresService, RedisService\n"
        "postgres, redis = PostgresService(), RedisService()\n"
        "postgres.start(); redis.start()\n"
        "print(postgres.pid, redis.pid, postgres.folder, redis.folder, flush=True)\n"
        "import time; time.sleep(600)\n"
    )
    folders: list[str] = []
    tree: list[int] = []
    with subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True
    ) as starter:
        try:
            assert starter.stdout is not None
            *started, postgres_folder, redis_folder = starter.stdout.readline().split()
            folders.extend([postgres_folder, redis_folder])
            pids = [int(pid) for pid in started]
            assert len(alive(pids)) == 2
            tree.extend(member for pid in pids for member in process_tree(pid))
            starter.send_signal(signal.SIGKILL)  # no atexit, no finalizer: only the kernel
            starter.wait()
            deadline = time.monotonic() + 15
            while alive(tree) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert alive(tree) == []
        finally:
            starter.kill()
            for pid in alive(tree):  # where the test fails: not left running
                os.kill(pid, signal.SIGKILL)
            for folder in folders:  # the starter, killed, removed nothing
                shutil.rmtree(folder, ignore_errors=True)
