"""Haunt the Block (Ghosts Love Candy Too): walk around the block writing 1 to 31."""

KINDS = {
    "haunt-the-block": "sheetgen.games.haunt_the_block.compose",
}
