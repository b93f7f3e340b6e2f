"""The scene-file text the bench generators (make-*.py beside this file) write: the scene's head
fields one a line, then its bodies and joints one a line each, so that a scene of thousands of
bodies stays readable and a change to one body is a one-line diff (docs/scene-format.md)."""
import json
import os


def dump(value):
    return json.dumps(value, separators=(", ", ": "))


def scene_text(head, bodies, joints=None):
    fields = [f"  {json.dumps(k)}: {dump(v)}" for k, v in head.items()]
    text = "{\n" + ",\n".join(fields) + ',\n  "bodies": [\n    ' + ",\n    ".join(map(dump, bodies))
    if joints is not None:
        text += '\n  ],\n  "joints": [\n    ' + ",\n    ".join(map(dump, joints))
    return text + "\n  ]\n}\n"


def write_beside(script, scenes):
    """Writes each {file name: text} into the folder of `script` (a generator's __file__)."""
    here = os.path.dirname(os.path.abspath(script))
    for name, text in scenes.items():
        with open(os.path.join(here, name), "w") as f:
            f.write(text)
