"""Points the RUNPATH of the bundled libpython at the bundle itself ($ORIGIN).

A Python built from source (pyenv, a self-built /usr/local) links libpython with RUNPATH set
to its own lib folder on the build machine, and PyInstaller copies the library as it is: the
loader of every bundled process would then look in that build machine's folder first. The
path string is overwritten in place ("$ORIGIN" and padding NULs), so nothing else in the
file moves. Usage: own_runpath.py LIBRARY"""

import struct
import sys

DT_NULL, DT_STRTAB, DT_RPATH, DT_RUNPATH = 0, 5, 15, 29


def main(path: str) -> int:
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            print(f"own_runpath: {path} is not a 64-bit little-endian ELF file; left as it is")
            return 0
        e_shoff, = struct.unpack_from("<Q", data, 0x28)
        e_shentsize, e_shnum = struct.unpack_from("<HH", data, 0x3A)
        sections = [struct.unpack_from("<IIQQQQIIQQ", data, e_shoff + i * e_shentsize) for i in range(e_shnum)]
        dynamic = next((s for s in sections if s[1] == 6), None)  # SHT_DYNAMIC
        if dynamic is None:
            return 0
        entries = [struct.unpack_from("<qQ", data, dynamic[4] + off) for off in range(0, dynamic[5], 16)]
        strtab_addr = next(v for t, v in entries if t == DT_STRTAB)
        strtab = next(s for s in sections if s[3] == strtab_addr)  # the section loaded at that address
        changed = 0
        for tag, value in entries:
            if tag in (DT_RPATH, DT_RUNPATH):
                start = strtab[4] + value
                end = data.index(b"\0", start)
                old = data[start:end].decode()
                if old == "$ORIGIN" or len(old) < len("$ORIGIN"):
                    continue
                data[start:end] = b"$ORIGIN".ljust(end - start, b"\0")
                print(f"own_runpath: {path}: {old} -> $ORIGIN")
                changed += 1
        if changed:
            f.seek(0)
            f.write(data)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
