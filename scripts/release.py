#!/usr/bin/env python3
"""`just release`: the release archives of `twenty48` for Linux and Windows, made by dist
(the release tool once called cargo-dist, configured in dist-workspace.toml) and checked.

1. The files an archive carries besides the binary and what dist adds by itself (README.md,
   LICENSE-MIT, LICENSE-APACHE): the shell completions and man pages, written by the CLI
   itself (`twenty48 completions SHELL`, `twenty48 man --dir`) into target/release-extra/,
   which dist-workspace.toml's `include` names.
2. `dist build --artifacts=local` for x86_64-unknown-linux-gnu and x86_64-pc-windows-gnu: the
   archives and their .sha256 files in target/distrib/. dist builds the Windows target on
   Linux through cargo-xwin, which for a -gnu target runs `cargo build` as it is (MinGW-w64
   links).
3. Each archive checked: its .sha256, its files exactly (nothing missing, nothing else),
   unpacked into a temporary folder, the licences and README equal to the repository's, the
   unpacked `twenty48 --version` (under Wine for Windows) naming the workspace's version, and
   the archive's completions and man pages equal to what that unpacked binary prints.

Run by `just release` after `python3 scripts/setup.py release`; prints each archive's name,
size and files, and the time each step took.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTRA = ROOT / "target/release-extra"
DISTRIB = ROOT / "target/distrib"
TOOLS = ROOT / "target/release-tools/bin"
WINE = Path("/usr/lib/wine/wine64")
WINESERVER = Path("/usr/lib/wine/wineserver")
# The prefix `just windows-test` uses too (scripts/windows-test.sh makes it the same way).
WINE_PREFIX = ROOT / "target/wine"
SHIM = ROOT / "scripts/wine/bcryptprimitives.c"

LINUX = "x86_64-unknown-linux-gnu"
WINDOWS = "x86_64-pc-windows-gnu"
TARGETS = (LINUX, WINDOWS)

# Each shell `twenty48 completions` knows, with the file name its completion loader looks for.
COMPLETIONS = {
    "bash": "twenty48.bash",
    "zsh": "_twenty48",
    "fish": "twenty48.fish",
    "powershell": "_twenty48.ps1",
    "elvish": "twenty48.elv",
}

# What dist copies into every archive by itself (auto-includes) from the repository's top.
TOP_FILES = ("LICENSE-APACHE", "LICENSE-MIT", "README.md")

TIMEOUT = 120  # seconds for one run of the binary (Wine's first start included)

# README.md's promises: the Linux binary runs on glibc 2.34 and newer; the Windows binary
# needs no DLL that Windows itself lacks (no MinGW runtime such as libwinpthread-1.dll).
GLIBC_MAX = (2, 34)
WINDOWS_DLLS = {
    "kernel32.dll", "ntdll.dll", "user32.dll", "msvcrt.dll", "advapi32.dll", "ws2_32.dll",
    "userenv.dll", "bcrypt.dll", "bcryptprimitives.dll", "setupapi.dll", "shell32.dll",
    "ole32.dll", "oleaut32.dll",
}


class Failed(Exception):
    pass


def step(title: str):
    print(f"\n== {title}", flush=True)
    return time.monotonic()


def run(cmd, **kw) -> subprocess.CompletedProcess:
    print("+ " + " ".join(str(c) for c in cmd), flush=True)
    p = subprocess.run(cmd, **kw)
    if p.returncode != 0:
        said = p.stderr if isinstance(p.stderr, str) else (p.stderr or b"").decode(errors="replace")
        raise Failed(f"{cmd[0]} exited with {p.returncode}" + (f":\n{said.strip()}" if said.strip() else ""))
    return p


def workspace_version() -> str:
    text = (ROOT / "Cargo.toml").read_text()
    m = re.search(r'^\[workspace\.package\][^\[]*?^version\s*=\s*"([^"]+)"', text, re.M | re.S)
    if not m:
        raise Failed("Cargo.toml: no version in [workspace.package]")
    return m.group(1)


# ---------------------------------------------------------------------------------------------
# 1. Completions and man pages

def write_extra(cli: Path) -> None:
    """The completions and man pages into target/release-extra/, from the CLI itself."""
    shutil.rmtree(EXTRA, ignore_errors=True)
    (EXTRA / "completions").mkdir(parents=True)
    for shell, name in COMPLETIONS.items():
        out = run([cli, "completions", shell], capture_output=True, timeout=TIMEOUT).stdout
        if not out:
            raise Failed(f"`twenty48 completions {shell}` printed nothing")
        (EXTRA / "completions" / name).write_bytes(out)
    run([cli, "man", "--dir", EXTRA / "man/man1"], timeout=TIMEOUT)


# ---------------------------------------------------------------------------------------------
# 2. dist

def dist_build() -> list[Path]:
    """`dist build` of the local artifacts (the archives and their checksums) for TARGETS;
    returns the archives, as dist's manifest names them."""
    env = dict(os.environ, PATH=f"{TOOLS}{os.pathsep}{os.environ['PATH']}")
    shutil.rmtree(DISTRIB, ignore_errors=True)
    cmd = [TOOLS / "dist", "build", "--artifacts=local", "--output-format=json", "--no-local-paths"]
    for t in TARGETS:
        cmd += ["--target", t]
    p = run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE)
    manifest = json.loads(p.stdout)
    archives = [
        DISTRIB / name
        for name, art in manifest.get("artifacts", {}).items()
        if art.get("kind") == "executable-zip"
    ]
    if sorted(a.name for a in archives) != sorted(archive_name(t) for t in TARGETS):
        raise Failed(f"dist made {[a.name for a in archives]}, not one archive per target")
    return archives


def archive_name(target: str) -> str:
    return f"twenty48-cli-{target}" + (".zip" if "windows" in target else ".tar.xz")


# ---------------------------------------------------------------------------------------------
# 3. Checks

def unpack(archive: Path, into: Path) -> dict[str, int]:
    """Unpacks `archive` into `into`; returns its files (path inside it -> size)."""
    files = {}
    if archive.suffix == ".zip":
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                if not info.is_dir():
                    files[info.filename] = info.file_size
            z.extractall(into)
    else:
        with tarfile.open(archive) as t:
            for member in t.getmembers():
                if member.isfile():
                    files[member.name] = member.size
                elif not member.isdir():
                    raise Failed(f"{archive.name}: {member.name} is neither a file nor a folder")
            if hasattr(tarfile, "data_filter"):
                t.extractall(into, filter="data")
            else:
                t.extractall(into)
    return files


def check_sha256(archive: Path) -> None:
    line = archive.with_name(archive.name + ".sha256").read_text().split()
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if line[0] != digest or line[-1].lstrip("*") != archive.name:
        raise Failed(f"{archive.name}.sha256 says {' '.join(line)}, the archive's is {digest}")


def same_tree(made: Path, shipped: Path, what: str) -> None:
    """The files under `made` (by the unpacked binary) and `shipped` (in the archive) are the
    same names with the same bytes."""
    a = {p.relative_to(made).as_posix(): p.read_bytes() for p in made.rglob("*") if p.is_file()}
    b = {p.relative_to(shipped).as_posix(): p.read_bytes() for p in shipped.rglob("*") if p.is_file()}
    if not a:
        raise Failed(f"{what}: the binary wrote nothing")
    if a.keys() != b.keys():
        raise Failed(f"{what}: the binary writes {sorted(a)}, the archive has {sorted(b)}")
    differ = [name for name in a if a[name] != b[name]]
    if differ:
        raise Failed(f"{what}: the archive's {differ} differ from what its binary writes")


def check_archive(archive: Path, target: str, version: str, runner) -> None:
    windows = "windows" in target
    exe = "twenty48.exe" if windows else "twenty48"
    with tempfile.TemporaryDirectory(prefix="twenty48-release-") as tmp:
        tmp = Path(tmp)
        files = unpack(archive, tmp / "unpacked")
        top = sorted({name.split("/")[0] for name in files})
        # A .tar.xz holds one folder named after it; a .zip holds the files themselves.
        base = archive.name.removesuffix(".tar.xz").removesuffix(".zip")
        prefix = "" if windows else base + "/"
        if not windows and top != [base]:
            raise Failed(f"{archive.name}: its top level is {top}, not one folder {base}/")
        inside = {name.removeprefix(prefix) for name in files}
        here = tmp / "unpacked" / prefix
        print(f"{archive.name}  {archive.stat().st_size:,} bytes")
        for name in sorted(files):
            print(f"  {files[name]:>10,}  {name}")

        # The files, exactly: the binary, dist's auto-includes and target/release-extra/.
        pages = sorted(p.name for p in (EXTRA / "man/man1").iterdir())
        wanted = {exe, *TOP_FILES}
        wanted |= {f"completions/{name}" for name in COMPLETIONS.values()}
        wanted |= {f"man/man1/{page}" for page in pages}
        if inside != wanted:
            raise Failed(f"{archive.name}: missing {sorted(wanted - inside)}, "
                         f"not wanted {sorted(inside - wanted)}")
        for name in TOP_FILES:
            if (here / name).read_bytes() != (ROOT / name).read_bytes():
                raise Failed(f"{archive.name}: its {name} is not the repository's")
        binary = here / exe
        magic = binary.read_bytes()[:4]
        if magic[:2 if windows else 4] != (b"MZ" if windows else b"\x7fELF"):
            raise Failed(f"{archive.name}: {exe} is not a {'PE' if windows else 'ELF'} file")
        if not windows and not os.access(binary, os.X_OK):
            raise Failed(f"{archive.name}: {exe} is not executable")
        check_linkage(binary, windows, archive.name)

        # The unpacked binary runs and names the version; what it prints is what was packed.
        out = runner(binary, ["--version"], here).stdout.decode()
        print(f"  $ {exe} --version{'   (under Wine)' if windows else ''}\n  {out.strip()}")
        if out.strip() != f"twenty48 {version}":
            raise Failed(f"{archive.name}: `{exe} --version` printed {out!r}, not twenty48 {version}")
        made = tmp / "made"
        (made / "completions").mkdir(parents=True)
        for shell, name in COMPLETIONS.items():
            (made / "completions" / name).write_bytes(runner(binary, ["completions", shell], here).stdout)
        same_tree(made / "completions", here / "completions", f"{archive.name}: completions")
        runner(binary, ["man", "--dir", "../made/man1"], tmp / "unpacked")
        same_tree(made / "man1", here / "man/man1", f"{archive.name}: man pages")
        print(f"  its completions ({len(COMPLETIONS)}) and man pages ({len(pages)}) are what it prints")


def check_linkage(binary: Path, windows: bool, name: str) -> None:
    """What the binary needs from the system it runs on, against README.md's promises."""
    if windows:
        dump = run(["x86_64-w64-mingw32-objdump", "-p", binary], capture_output=True, text=True).stdout
        dlls = {d.lower() for d in re.findall(r"DLL Name: (\S+)", dump)}
        other = sorted(d for d in dlls if d not in WINDOWS_DLLS and not d.startswith("api-ms-win-"))
        if not dlls or other:
            raise Failed(f"{name}: twenty48.exe imports DLLs Windows may lack: {other or 'none found'}")
        print(f"  imports only Windows's own DLLs: {', '.join(sorted(dlls))}")
    else:
        dump = run(["objdump", "-T", binary], capture_output=True, text=True).stdout
        versions = {tuple(map(int, v.split("."))) for v in re.findall(r"GLIBC_([0-9.]+)", dump)}
        if not versions or max(versions) > GLIBC_MAX:
            newest = ".".join(map(str, max(versions))) if versions else "none found"
            raise Failed(f"{name}: twenty48 needs glibc {newest}, README.md promises "
                         f"{'.'.join(map(str, GLIBC_MAX))}")
        print(f"  needs glibc {'.'.join(map(str, max(versions)))} or newer")


def native(binary: Path, args: list, cwd: Path) -> subprocess.CompletedProcess:
    return run([binary, *args], cwd=cwd, capture_output=True, timeout=TIMEOUT)


def wine_prefix() -> dict:
    """The Wine prefix target/wine/ (made on first use) with the stand-in for
    bcryptprimitives.dll that Rust's standard library needs and Debian's Wine 8 lacks
    (scripts/wine/)."""
    env = dict(os.environ, WINEPREFIX=str(WINE_PREFIX), WINEDEBUG="-all",
               WINEDLLOVERRIDES="mscoree=;mshtml=")  # no Mono or Gecko prompts
    if not (WINE_PREFIX / "system.reg").is_file():
        # Its status says little (a 64-bit-only Wine complains about syswow64 and goes on):
        # the prefix's files are what count.
        print(f"+ {WINE} wineboot -i", flush=True)
        subprocess.run([WINE, "wineboot", "-i"], env=env, capture_output=True, timeout=600)
        subprocess.run([WINESERVER, "-w"], env=env, timeout=600)
        if not (WINE_PREFIX / "system.reg").is_file():
            raise Failed(f"wineboot made no prefix in {WINE_PREFIX}")
    dll = WINE_PREFIX / "drive_c/windows/system32/bcryptprimitives.dll"
    if not dll.is_file() or SHIM.stat().st_mtime > dll.stat().st_mtime:
        run(["x86_64-w64-mingw32-gcc", "-O2", "-shared", "-o", dll, SHIM, SHIM.with_suffix(".def"),
             "-ladvapi32"], timeout=TIMEOUT)
    return env


def under_wine(env: dict):
    def runner(binary: Path, args: list, cwd: Path) -> subprocess.CompletedProcess:
        return run([WINE, binary, *args], cwd=cwd, env=env, capture_output=True, timeout=TIMEOUT)

    return runner


def main() -> int:
    start = time.monotonic()
    times = []
    version = workspace_version()
    try:
        t = step("completions and man pages, from the CLI itself, into target/release-extra/")
        run(["cargo", "build", "-q", "-p", "twenty48-cli"], cwd=ROOT)
        write_extra(ROOT / "target/debug/twenty48")
        times.append(("completions and man pages", time.monotonic() - t))

        t = step(f"dist build: the archives for {', '.join(TARGETS)}")
        archives = dist_build()
        times.append(("dist build", time.monotonic() - t))

        t = step("each archive unpacked and checked")
        env = wine_prefix()
        try:
            for archive in sorted(archives):
                target = next(x for x in TARGETS if x in archive.name)
                check_sha256(archive)
                check_archive(archive, target, version,
                              under_wine(env) if "windows" in target else native)
        finally:
            # The prefix's wineserver ends now, not seconds later: nothing is left running.
            subprocess.run([WINESERVER, "-k"], env=env, capture_output=True)
        times.append(("checks", time.monotonic() - t))
    except (Failed, subprocess.TimeoutExpired, OSError, KeyError, json.JSONDecodeError) as e:
        print(f"error: release: {e}", file=sys.stderr)
        return 1
    print("\nrelease: " + ", ".join(f"{what} {s:.0f} s" for what, s in times)
          + f"; {time.monotonic() - start:.0f} s in all")
    for archive in sorted(archives):
        print(f"  {archive.relative_to(ROOT)}  {archive.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
