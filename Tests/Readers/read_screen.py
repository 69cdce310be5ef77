"""What a terminal shows for the bytes a program wrote to it, as JSON.

    python read_screen.py BYTES-FILE COLUMNS LINES

Feeds the bytes to pyte, a VT100/xterm emulator (escape sequences acted on,
wide characters in two cells, combining marks in the cell before), and
prints the screen: one list of cells per line, a wide character's second
cell as "".
"""
import json
import sys

import pyte


def main():
    columns, lines = int(sys.argv[2]), int(sys.argv[3])
    screen = pyte.Screen(columns, lines)
    stream = pyte.ByteStream(screen)
    with open(sys.argv[1], "rb") as f:
        stream.feed(f.read())
    rows = [[screen.buffer[y][x].data for x in range(columns)] for y in range(lines)]
    json.dump({"lines": rows}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
