"""kill -9 the parent of `calibsim run STUDY --workers 2` once its workers have saved a block; print how long until its worker processes are gone (issue 45).

Usage: python scripts/kill_parent_check.py STUDY.toml RESULTS_DIR REPO_ROOT
"""
import os, signal, subprocess, sys, time
import psutil
study = sys.argv[1]
proc = subprocess.Popen([sys.executable, "-m", "calibsim", "run", study, "--workers", "2",
                         "--no-progress", "--results", sys.argv[2]],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=sys.argv[3])
parent = psutil.Process(proc.pid)
t0 = time.time()
while time.time() - t0 < 120:
    kids = [c for c in parent.children(recursive=True)]
    workers = [c for c in kids if "loky" in " ".join(c.cmdline()) or "popen_loky" in " ".join(c.cmdline())]
    if len(workers) >= 2:
        break
    time.sleep(0.2)
print("workers:", [w.pid for w in workers], "all children:", [c.pid for c in kids])
import glob
while not glob.glob(sys.argv[2] + "/store/*/*.npz") and time.time() - t0 < 300:
    time.sleep(0.1)      # until the workers have saved a block: they are working
print("blocks saved before the kill:", len(glob.glob(sys.argv[2] + "/store/*/*.npz")))
os.kill(proc.pid, signal.SIGKILL)
t_kill = time.time()
proc.wait()
alive = kids
w_alive, t_workers = list(workers), None
while alive and time.time() - t_kill < 30:
    w_alive = [c for c in w_alive if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    if not w_alive and t_workers is None:
        t_workers = time.time() - t_kill
        print(f"loky workers gone {t_workers:.2f} s after kill -9 of the parent")
    alive = [c for c in alive if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]
    time.sleep(0.02)
print(f"children alive after kill -9 of the parent: {len(alive)}; all gone after {time.time() - t_kill:.2f} s")
