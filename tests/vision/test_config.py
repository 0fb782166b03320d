import ast
import inspect
from collections import Counter

from vision import config


def test_every_setting_is_named_once():
    # a dataclass takes a second field of the same name silently: the later value wins for
    # both stages that read it
    tree = ast.parse(inspect.getsource(config.VisionConfig))
    names = [node.target.id for node in ast.walk(tree) if isinstance(node, ast.AnnAssign)]
    assert names and [name for name, count in Counter(names).items() if count > 1] == []
