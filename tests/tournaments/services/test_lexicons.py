"""Word lists (tournaments.services.lexicons): the bundled ones registered once, a user's
list compiled before it is kept."""

from __future__ import annotations

import gzip

import pytest

from tournaments import services
from tournaments.models import Lexicon
from tournaments.services import ApplicationError

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_bundled_list_is_registered_once(enable_lexicon: Lexicon) -> None:
    assert services.lexicon_bundled(name="enable").pk == enable_lexicon.pk
    assert Lexicon.objects.filter(bundled="enable").count() == 1
    assert (enable_lexicon.language, enable_lexicon.name) == ("en", "enable")
    assert enable_lexicon.word_count > 100_000 and len(enable_lexicon.checksum) == 64


def test_an_imported_list_is_kept_gzipped_with_its_report(transactional_db: None) -> None:
    data = "cœur\nQI\nzoo\npomme-de-terre\nqi\n".encode()
    lexicon = services.lexicon_import(name="club", language="french", data=data, source_name="club.txt")
    assert lexicon.word_count == 3 and lexicon.source_name == "club.txt" and not lexicon.bundled
    assert gzip.decompress(bytes(lexicon.content)) == data
    assert lexicon.report  # the words skipped and the duplicates, as event_create prints them
    # The same bytes always pack the same way: the same checksum for the same list.
    assert services.lexicon_pack(data) == services.lexicon_pack(data) == bytes(lexicon.content)
    assert services.lexicon_pack(bytes(lexicon.content)) == bytes(lexicon.content)


def test_an_imported_list_needs_a_new_name_and_a_usable_word(transactional_db: None) -> None:
    services.lexicon_import(name="club", language="french", data=b"zoo\n")
    with pytest.raises(ApplicationError, match="a lexicon named 'club' already exists"):
        services.lexicon_import(name="club", language="french", data=b"other\n")
    with pytest.raises(ApplicationError, match=r"empty\.txt: no usable word"):
        services.lexicon_import(name="empty", language="french", data=b"a-b\n1234\n", source_name="empty.txt")
    assert list(Lexicon.objects.values_list("name", flat=True)) == ["club"]
