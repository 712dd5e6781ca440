"""A bounded soak of ``kalarite serve`` on 127.0.0.1 (benchmarks/soak_service.py, small):
eight tiny studies from two users' tokens, each kept, cancelled or deleted, readers and an
event-stream client all the while, and a kill -9 of the service while a study plays, then a
restart. Afterwards every study is finished (exactly its games, once each) or cancelled
(resumable), every deleted one is gone, and every request was answered (a refused
connection during the restart is retried and counted)."""

from benchmarks.soak_service import parse, soak

ARGS = [
    "--studies", "8", "--keep", "2", "--games", "4", "--restarts", "1", "--readers", "3",
    "--read-pause-s", "0.05", "--kill-wait-s", "60", "--between-kills-s", "0",
    "--settle-s", "600", "--request-deadline-s", "300", "--no-resume", "--kept-first", "--out", "",
]  # fmt: skip


def test_soak_with_a_kill_9_in_the_middle(tmp_path):
    f = soak(tmp_path / "data", parse(ARGS))
    print("soak:", {k: v for k, v in f.items() if k != "problems"})
    assert f["problems"] == []
    assert f["unanswered"] == 0 and f["restarts_survived"] == 1
    assert f["kills_while_a_study_ran"] == 1
    # a submission cut by the kill may or may not have been registered (once, at most: the
    # soak checks names): registered, it is left to finish
    cut, kept = f["submissions_cut"], f["submissions_cut_registered"]
    ends = f["studies_finished"] + f["studies_cancelled"] + f["studies_deleted"]
    assert ends == 8 - cut + kept and f["studies_failed"] == 0
    fates = f["fates_of_the_answered_submissions"]
    assert f["studies_finished"] == fates["keep"] + kept
    assert f["studies_deleted"] == fates["delete"] and f["studies_cancelled"] == fates["cancel"]
    # each study not kept was first cancelled by the other user, and refused
    assert f["statuses"].get("403", 0) == fates["cancel"] + fates["delete"]
    assert f["list_events_received"] > 0
