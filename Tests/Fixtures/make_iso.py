"""Writes a minimal ISO 9660 image (ECMA-119: a primary volume descriptor,
a root directory, one file) holding FILE, to test that a disc image is read
as a container, not as text. Usage: make_iso.py FILE NAME OUT"""
import struct, sys

SECTOR = 2048

def both16(v): return struct.pack('<H', v) + struct.pack('>H', v)
def both32(v): return struct.pack('<I', v) + struct.pack('>I', v)

def record(extent, size, name, is_dir):
    date = bytes([126, 3, 1, 0, 0, 0, 0])  # 2026-03-01
    body = both32(extent) + both32(size) + date + bytes([2 if is_dir else 0, 0, 0]) + both16(1)
    body += bytes([len(name)]) + name
    length = 33 + len(name)
    if length % 2: body += b'\0'; length += 1
    return bytes([length, 0]) + body

def main(path, name, out):
    data = open(path, 'rb').read()
    root, table, file_at = 18, 19, 21  # the path table in both byte orders: 19 and 20
    file_sectors = (len(data) + SECTOR - 1) // SECTOR
    total = file_at + file_sectors
    entry = name.upper().encode() + b';1'
    directory = record(root, SECTOR, b'\0', True) + record(root, SECTOR, b'\1', True) + record(file_at, len(data), entry, False)
    pvd = bytes([1]) + b'CD001' + bytes([1, 0]) + b' ' * 32 + b'SMASHTAG'.ljust(32) + bytes(8) + both32(total) + bytes(32)
    pvd += both16(1) + both16(1) + both16(SECTOR) + both32(10) + struct.pack('<I', table) + struct.pack('<I', 0)
    pvd += struct.pack('>I', table + 1) + struct.pack('>I', 0) + record(root, SECTOR, b'\0', True)
    pvd += b' ' * 128 * 4 + b' ' * 37 * 3 + (b'0' * 16 + b'\0') * 4 + bytes([1, 0])
    path_le = bytes([1, 0]) + struct.pack('<I', root) + struct.pack('<H', 1) + b'\0\0'
    path_be = bytes([1, 0]) + struct.pack('>I', root) + struct.pack('>H', 1) + b'\0\0'
    image = bytearray(SECTOR * (total + 1))
    image[16 * SECTOR:16 * SECTOR + len(pvd)] = pvd
    image[17 * SECTOR:17 * SECTOR + 7] = bytes([255]) + b'CD001' + bytes([1])
    image[root * SECTOR:root * SECTOR + len(directory)] = directory
    image[table * SECTOR:table * SECTOR + len(path_le)] = path_le
    image[(table + 1) * SECTOR:(table + 1) * SECTOR + len(path_be)] = path_be
    image[file_at * SECTOR:file_at * SECTOR + len(data)] = data
    open(out, 'wb').write(bytes(image))

if __name__ == '__main__':
    main(*sys.argv[1:4])
