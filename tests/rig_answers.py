"""Learner answers that both the self-check tests and the grade tests try (written once here).

Each is the source of an answer cell, as a new learner or an attacker wrote it.
"""

DRAINS_THE_MODEL = """
def check_paris_weather(make_model):
    model = make_model()
    request = [{"role": "user", "content": "What is Paris's teaching weather?"}]
    try:
        for _ in range(6):
            model.generate(request, [])
    except Exception:
        assert False, "a listed script"
"""
"""A lesson-04 test that drains the model: a listed guesser ran out when asked again and again
about one transcript, the honest function script did not (a new learner's rig; now both answer
by transcript, so it cannot tell them apart)."""
