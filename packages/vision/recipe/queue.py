"""Runs many sweep.py trainings side by side on one GPU, within a time limit, and packs what they wrote.

One small MobileNetV2 at 160 px leaves most of an H100/H200 idle (Python and kernel launches are the limit),
so several processes share it. Jobs start in the order given, each only if all work started so far would
still end before --deadline, judged by the GPU's throughput that the running jobs show (and one network's
own speed, for the longest); when the running jobs would not end in time, the last-listed one is stopped.
At --deadline the jobs still running are stopped and lost. Then <pack-to>/ gets: results.jsonl (every
finished split), probs.tar (each job's probs.npz), logs.tar, and the weights of the jobs marked to save:
`all` splits as float32 .pt files, fold splits as float16 (BatchNorm statistics float32) in one tar per
recipe (the device hands back few files of at most 16 MiB).

  PYTHONPATH=packages/vision python3 -m recipe.queue --pack .gpu/pack --work /tmp/q --pack-to $OUT \\
    --deadline 500 --workers 8 m160x72@42:fold0:save m160x72@42:all:save m160xl@7:fold0 ...
"""
import argparse
import glob
import os
import re
import signal
import subprocess
import sys
import tarfile
import time

import torch

from recipe.sweep import RECIPES


def epochs_done(log):
    """(epochs done, seconds since training began, seconds per epoch over the last few) or None."""
    try:
        found = re.findall(r'epoch (\d+)/\d+ loss~\S+ (\d+)s', open(log).read())
    except OSError:
        return None
    if len(found) < 2:
        return None
    e, t = int(found[-1][0]), float(found[-1][1])
    back = found[max(0, len(found) - 4)]
    return e, t, (t - float(back[1])) / max(1, e - int(back[0]))


def main(a):
    t0 = time.time()
    os.makedirs(a.work, exist_ok=True)
    os.makedirs(a.pack_to, exist_ok=True)
    queue = []
    for spec in a.jobs:
        parts = spec.split(':')
        recipe, split, save = parts[0], parts[1], len(parts) > 2 and parts[2] == 'save'
        epochs = a.epochs or RECIPES[recipe.partition('@')[0]]['epochs']
        queue.append(dict(recipe=recipe, split=split, save=save, epochs=epochs,
                          tag=f"{recipe.replace('@', '_s')}_{split}"))
    for i, j in enumerate(queue):
        j['order'] = i
    running = []
    last_shed = 0.0
    share = a.share  # GPU seconds per network-epoch when several share it, until the running jobs show it

    def log(msg):
        line = f'[{time.time() - t0:5.0f}s] {msg}'
        print(line, flush=True)
        with open(os.path.join(a.work, 'queue.log'), 'a') as f:
            f.write(line + '\n')

    while queue or running:
        for job in list(running):
            if job['proc'].poll() is not None:
                running.remove(job)
                log(f"done {job['tag']} rc={job['proc'].returncode} in {time.time() - job['start']:.0f}s")
        seen = [(j, epochs_done(j['log'])) for j in running]
        warm = [x for _, x in seen if x and x[0] >= 5]  # past the first epochs (cuDNN autotuning, start-up)
        if warm and len(warm) == len(running):
            share = 1 / sum(1 / x[2] for x in warm)  # GPU seconds per network-epoch, all sharing it
        left = sum(j['epochs'] - (x[0] if x else 0) for j, x in seen)
        now = time.time() - t0

        def finish(extra):
            """When all running jobs, plus `extra` epochs of a new one, are done: the GPU's throughput
            bounds them together, one network's own speed bounds the longest."""
            longest = max([extra] + [j['epochs'] - (x[0] if x else 0) for j, x in seen])
            return now + max(share * (left + extra), a.solo * longest) * a.margin

        # shed load: when the running jobs would not all finish in time, stop the last-listed one
        if warm and len(running) > 1 and finish(0) + a.tail > a.deadline and now - last_shed > 20:
            victim = max(running, key=lambda j: j['order'])
            log(f"shed {victim['tag']} ({epochs_done(victim['log'])}): all would end at {finish(0):.0f}s")
            os.killpg(victim['proc'].pid, signal.SIGKILL)
            victim['proc'].wait()
            running.remove(victim)
            last_shed = now
            continue
        while queue and len(running) < a.workers:
            job = next((j for j in queue if finish(j['epochs']) + a.overhead < a.deadline), None)
            if job is None:
                break
            queue.remove(job)
            out = os.path.join(a.work, job['tag'])
            os.makedirs(out, exist_ok=True)
            cmd = [sys.executable, '-m', 'recipe.sweep', '--pack', a.pack, '--out', out, '--recipes', job['recipe'],
                   '--splits', job['split'], '--budget', '1e9', '--device', a.device, '--every', str(a.every)]
            if a.epochs:
                cmd += ['--epochs', str(a.epochs)]
            if a.pretrained:
                cmd += ['--pretrained', a.pretrained]
            if job['save']:
                cmd += ['--save', job['recipe']]
            job['log'] = os.path.join(out, 'stdout.txt')
            job['proc'] = subprocess.Popen(cmd, stdout=open(job['log'], 'w'), stderr=subprocess.STDOUT,
                                           start_new_session=True)
            job['start'] = time.time()
            job['out'] = out
            running.append(job)
            left += job['epochs']
            seen.append((job, None))
            log(f"start {job['tag']} ({job['epochs']} epochs, {share:.2f} GPU s per network-epoch, "
                f"{len(running)} running)")
        if not running and queue:
            for j in queue:
                log(f"skip {j['tag']}: {j['epochs']} epochs would pass the deadline")
            queue = []
        if time.time() - t0 > a.deadline:
            for job in running:
                log(f"stop {job['tag']} at the deadline: {epochs_done(job['log'])}")
                os.killpg(job['proc'].pid, signal.SIGKILL)
            break
        time.sleep(2)
    pack(a, log)
    log('packed')


def pack(a, log):
    results = []
    for f in sorted(glob.glob(os.path.join(a.work, '*', 'results.jsonl'))):
        results += open(f).read().splitlines()
    open(os.path.join(a.pack_to, 'results.jsonl'), 'w').write('\n'.join(results) + '\n')
    with tarfile.open(os.path.join(a.pack_to, 'probs.tar'), 'w') as t:
        for f in sorted(glob.glob(os.path.join(a.work, '*', 'probs.npz'))):
            t.add(f, arcname=os.path.basename(os.path.dirname(f)) + '.npz')
    with tarfile.open(os.path.join(a.pack_to, 'logs.tar.gz'), 'w:gz') as t:
        for f in sorted(glob.glob(os.path.join(a.work, '*', '*.txt'))) + [os.path.join(a.work, 'queue.log')]:
            t.add(f, arcname=os.path.relpath(f, a.work))
    folds = {}
    for f in sorted(glob.glob(os.path.join(a.work, '*', '*.pt'))):
        name = os.path.basename(f)
        if name.endswith('_all.pt'):
            os.replace(f, os.path.join(a.pack_to, name))
            continue
        state = torch.load(f, map_location='cpu')
        half = {k: v.half() if v.is_floating_point() and 'running' not in k else v for k, v in state.items()}
        small = f[:-3] + '.f16.pt'
        torch.save(half, small)
        folds.setdefault(name.rsplit('_fold', 1)[0], []).append(small)
    for recipe, files in folds.items():
        with tarfile.open(os.path.join(a.pack_to, f'{recipe}_folds.tar'), 'w') as t:
            for f in files:
                t.add(f, arcname=os.path.basename(f))
    log(f'{len(results)} results, weights: {sorted(os.listdir(a.pack_to))}')


if __name__ == '__main__':
    p = argparse.ArgumentParser()
    p.add_argument('jobs', nargs='+', help='recipe@seed:split[:save]')
    p.add_argument('--pack', required=True)
    p.add_argument('--work', required=True)
    p.add_argument('--pack-to', required=True)
    p.add_argument('--deadline', type=float, default=500)
    p.add_argument('--workers', type=int, default=8)
    p.add_argument('--share', type=float, default=0.75,
                   help='GPU seconds per network-epoch with the GPU shared, until measured (H200: 0.72)')
    p.add_argument('--solo', type=float, default=1.4, help='seconds per epoch of one network alone (H100: 1.4)')
    p.add_argument('--overhead', type=float, default=25, help='seconds a job spends loading and scoring')
    p.add_argument('--margin', type=float, default=1.1)
    p.add_argument('--tail', type=float, default=10, help='seconds a job spends scoring and saving after training')
    p.add_argument('--device', default='cuda')
    p.add_argument('--pretrained', default='', help="sweep.py's --pretrained, when not at its default place")
    p.add_argument('--every', type=int, default=1)
    p.add_argument('--epochs', type=int, default=0)
    main(p.parse_args())
