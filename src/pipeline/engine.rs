//! The ordered parallel engine: items are processed in windows, each window cut into blocks
//! that rayon workers take in any order, and the blocks' output bytes are handed to a writer
//! thread in input order. Per-worker scratch is built once and reused; block buffers are
//! recycled between windows, so a long run allocates nothing per item once warm.
//!
//! ```text
//!  main thread:  split window k ──► par blocks (workers) ──► send blocks k ──► split window k+1 ...
//!  writer:                                          write blocks k in order, return buffers
//! ```
//!
//! Runs whose items may take seconds each (generation) stream instead ([`Engine::stream`]):
//! workers take small blocks one after another with no window to wait for, and the calling
//! thread hands finished blocks on in input order, as soon as those before them are done.
//!
//! An interrupt (Ctrl-C) makes workers skip the blocks they have not started; the writer
//! writes only the blocks before the first skipped one, so the output holds complete rows
//! of a prefix of the input.

use std::collections::BTreeMap;
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use rayon::prelude::*;

use crate::core::Cancel;
use crate::io::Sink;

/// Most items per block: small enough to balance load across workers, large enough that
/// the per-block overhead vanishes. Small windows get smaller blocks (down to one item), so
/// that every worker has several blocks to take.
pub const BLOCK: usize = 64;

/// Sizes a run's windows so that each takes a second or so: rows reach the output (and the
/// progress bar moves) steadily whether an item takes a microsecond (solving) or a second
/// (grading a monster, generating an `extreme` puzzle), and an interrupt loses little work.
/// Window sizes never change the output bytes, only when they are written.
#[derive(Clone, Debug)]
pub struct Pacer {
    size: usize,
    min: usize,
    max: usize,
    /// Windows faster than this (seconds) are grown.
    fast: f64,
    /// Windows slower than this are shrunk.
    slow: f64,
}

impl Pacer {
    /// A pacer for `threads` workers and windows of at most `max` items, each taking
    /// 0.2 to 1 s; the first window has a few items per worker.
    pub fn new(threads: usize, max: usize) -> Pacer {
        let min = threads.max(1).min(max.max(1));
        Pacer {
            size: (min * 8).min(max.max(1)),
            min,
            max: max.max(1),
            fast: 0.2,
            slow: 1.0,
        }
    }

    /// The same pacer with windows of `fast` to `slow` seconds. Every window ends when its
    /// slowest item does, so a worker may wait at the end of each for the others; runs
    /// whose items take milliseconds each (generation) lose less to that with longer
    /// windows.
    pub fn seconds(self, fast: f64, slow: f64) -> Pacer {
        Pacer { fast, slow, ..self }
    }

    /// Items for the next window.
    pub fn size(&self) -> usize {
        self.size
    }

    /// Notes that a window of `items` took `secs` seconds and sizes the next one.
    pub fn record(&mut self, items: usize, secs: f64) {
        if items < self.size {
            return; // a short window (the end of the input) says little
        }
        if secs < self.fast {
            self.size = (self.size * 2).min(self.max);
        } else if secs > self.slow {
            self.size = (self.size / 2).max(self.min);
        }
    }
}

/// A message about one input record, for stderr (`FILE:LINE:COL: message`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    /// 1-based line.
    pub line: u64,
    /// 1-based column.
    pub col: usize,
    /// What is wrong.
    pub message: String,
}

/// The output of one block of items.
#[derive(Debug, Default)]
pub struct Block<S> {
    /// Encoded rows.
    pub out: Vec<u8>,
    /// Statistics of the block's items.
    pub stats: S,
    /// Messages about bad items, in item order.
    pub diags: Vec<Diag>,
    /// False if the block was skipped because of an interrupt.
    pub done: bool,
}

/// Rayon pool plus one scratch value per worker thread.
pub struct Engine<W> {
    pool: rayon::ThreadPool,
    workers: Vec<Mutex<W>>,
    interrupt: Arc<AtomicBool>,
}

impl<W: Send> Engine<W> {
    /// A pool of `threads` workers (0: rayon's default, which honours `RAYON_NUM_THREADS`),
    /// each with scratch made by `make`, which gets the run's [`Cancel`] token (set with
    /// `interrupt`) for the long searches inside one item.
    pub fn new(
        threads: usize,
        interrupt: Arc<AtomicBool>,
        make: impl Fn(Cancel) -> W,
    ) -> io::Result<Engine<W>> {
        let cancel = Cancel::from_flag(&interrupt);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("sudoku-worker-{i}"))
            .build()
            .map_err(io::Error::other)?;
        let workers = (0..pool.current_num_threads())
            .map(|_| Mutex::new(make(cancel)))
            .collect();
        Ok(Engine {
            pool,
            workers,
            interrupt,
        })
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.workers.len()
    }

    /// True once an interrupt was requested.
    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    /// Processes items `0..n` in blocks of at most [`BLOCK`] (about four blocks per worker
    /// or more): `f(scratch, i, block)` appends item
    /// `i`'s row to `block.out` and updates `block.stats`. `blocks` is resized to the number
    /// of blocks and its buffers reused. If `f` panics on an item, `on_panic(i, block)` is
    /// called instead so the item still gets a row.
    pub fn run<S, F, P>(&self, n: usize, blocks: &mut Vec<Block<S>>, f: F, on_panic: P)
    where
        S: Default + Send,
        F: Fn(&mut W, usize, &mut Block<S>) + Sync,
        P: Fn(usize, &mut Block<S>) + Sync,
    {
        let size = n.div_ceil(self.workers.len() * 16).clamp(1, BLOCK);
        let nblocks = n.div_ceil(size);
        blocks.resize_with(nblocks, Block::default);
        let workers = &self.workers;
        let interrupt = &self.interrupt;
        self.pool.install(|| {
            blocks.par_iter_mut().enumerate().for_each(|(b, block)| {
                let idx = rayon::current_thread_index().unwrap_or(0) % workers.len();
                let mut w = workers[idx].lock().unwrap_or_else(|e| e.into_inner());
                let items = b * size..((b + 1) * size).min(n);
                fill_block(&mut *w, items, block, &f, &on_panic, interrupt);
            });
        });
    }
}

impl<W: Send> Engine<W> {
    /// Processes items `0..n` as a stream of blocks of `size` items: each worker takes the
    /// next block as soon as it is free, whatever the others are doing, and the calling
    /// thread hands the finished blocks to `done(first_item, block)` in input order, each
    /// as soon as every block before it is finished. So no worker waits at a window's end
    /// for another's slow item (a long search, an `extreme` puzzle): only the rows wait,
    /// and workers stay at most [`AHEAD`] blocks per worker ahead of the first unfinished
    /// block. `done` returns false to stop: no block after that one is handed on, and the
    /// workers take no new block. A block left undone by an interrupt stops the stream too
    /// (it is not handed on). `done` may put spare blocks (buffers to reuse) in the vector
    /// it gets: the workers take their blocks from those, or make new ones.
    ///
    /// `f` and `on_panic` are as for [`Engine::run`]. Returns true when every block was
    /// handed on.
    pub fn stream<S, F, P, D>(&self, n: usize, size: usize, f: F, on_panic: P, mut done: D) -> bool
    where
        S: Default + Send,
        F: Fn(&mut W, usize, &mut Block<S>) + Sync,
        P: Fn(usize, &mut Block<S>) + Sync,
        D: FnMut(usize, Block<S>, &mut Vec<Block<S>>) -> bool,
    {
        let size = size.max(1);
        let nblocks = n.div_ceil(size);
        let ahead = AHEAD * self.workers.len();
        let next = AtomicUsize::new(0);
        let stop = AtomicBool::new(false);
        // The first block not yet handed on, for the workers that ran ahead.
        let first = Mutex::new(0usize);
        let moved = Condvar::new();
        let free: Mutex<Vec<Block<S>>> = Mutex::new(Vec::new());
        let (tx, rx) = channel::<(usize, Block<S>)>();
        let (workers, interrupt) = (&self.workers, &self.interrupt);
        let (f, on_panic) = (&f, &on_panic);
        let (next, stop, first_ref, moved_ref, free_ref) = (&next, &stop, &first, &moved, &free);
        let mut handed = 0usize;
        self.pool.in_place_scope(|s| {
            for _ in 0..workers.len() {
                let tx = tx.clone();
                s.spawn(move |_| {
                    let idx = rayon::current_thread_index().unwrap_or(0) % workers.len();
                    let mut w = workers[idx].lock().unwrap_or_else(|e| e.into_inner());
                    loop {
                        if stop.load(Ordering::Relaxed) || interrupt.load(Ordering::Relaxed) {
                            return;
                        }
                        let b = next.fetch_add(1, Ordering::Relaxed);
                        if b >= nblocks {
                            return;
                        }
                        {
                            let mut at = first_ref.lock().unwrap_or_else(|e| e.into_inner());
                            while b >= *at + ahead && !stop.load(Ordering::Relaxed) {
                                at = moved_ref.wait(at).unwrap_or_else(|e| e.into_inner());
                            }
                        }
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let mut block = free_ref
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .pop()
                            .unwrap_or_default();
                        fill_block(
                            &mut *w,
                            b * size..((b + 1) * size).min(n),
                            &mut block,
                            f,
                            on_panic,
                            interrupt,
                        );
                        if tx.send((b, block)).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(tx);
            // Finished blocks waiting for those before them.
            let mut waiting: BTreeMap<usize, Block<S>> = BTreeMap::new();
            let mut open = true;
            let mut give = Vec::new();
            for (b, block) in rx.iter() {
                if !open {
                    continue;
                }
                waiting.insert(b, block);
                let before = handed;
                while let Some(block) = waiting.remove(&handed) {
                    if !block.done || !done(handed * size, block, &mut give) {
                        open = false;
                        break;
                    }
                    handed += 1;
                }
                if !give.is_empty() {
                    free_ref
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .append(&mut give);
                }
                if !open {
                    stop.store(true, Ordering::Relaxed);
                }
                if handed != before || !open {
                    *first_ref.lock().unwrap_or_else(|e| e.into_inner()) = handed;
                    moved_ref.notify_all();
                }
            }
        });
        handed == nblocks
    }
}

/// Blocks a worker may run ahead of the first unfinished one, per worker, in
/// [`Engine::stream`]: enough to keep every worker busy behind a slow item for a long
/// while, few enough that the rows waiting for it stay small.
pub const AHEAD: usize = 256;

/// Makes the rows of `items` into `block` (emptied first), as [`Engine::run`] does for one
/// of its blocks.
fn fill_block<W, S: Default, F, P>(
    w: &mut W,
    items: std::ops::Range<usize>,
    block: &mut Block<S>,
    f: &F,
    on_panic: &P,
    interrupt: &AtomicBool,
) where
    F: Fn(&mut W, usize, &mut Block<S>),
    P: Fn(usize, &mut Block<S>),
{
    block.out.clear();
    block.diags.clear();
    block.stats = S::default();
    block.done = false;
    if interrupt.load(Ordering::Relaxed) {
        return;
    }
    for i in items {
        let mark = block.out.len();
        let r = catch_unwind(AssertUnwindSafe(|| f(w, i, block)));
        if r.is_err() {
            block.out.truncate(mark);
            on_panic(i, block);
        }
        // An item may have stopped half way for the interrupt (its row is then not to be
        // trusted): the block is left undone and nothing of it is written.
        if interrupt.load(Ordering::Relaxed) {
            return;
        }
    }
    block.done = true;
}

/// The writer thread: receives windows of blocks, writes the done ones in order, and sends
/// the buffers back for reuse.
pub struct Writer<S> {
    tx: Option<SyncSender<Vec<Block<S>>>>,
    back: Receiver<Vec<Block<S>>>,
    handle: Option<JoinHandle<(Sink, io::Result<()>)>>,
    spare: Vec<Vec<Block<S>>>,
    failed: Arc<AtomicBool>,
}

impl<S: Send + 'static> Writer<S> {
    /// Starts the writer thread on `sink`, first writing `header`. Every window is flushed
    /// as soon as it is written: rows leave as they are made (streaming), and a crash loses
    /// at most the window in progress, never rows already written.
    pub fn spawn(mut sink: Sink, header: Vec<u8>) -> Writer<S> {
        let (tx, rx) = sync_channel::<Vec<Block<S>>>(1);
        let (back_tx, back) = sync_channel::<Vec<Block<S>>>(4);
        let failed = Arc::new(AtomicBool::new(false));
        let failed2 = Arc::clone(&failed);
        let handle = std::thread::Builder::new()
            .name("sudoku-writer".into())
            .spawn(move || {
                let mut result = sink.write_all(&header);
                for blocks in rx {
                    if result.is_ok() {
                        for b in blocks.iter() {
                            if !b.done {
                                break;
                            }
                            if let Err(e) = sink.write_all(&b.out) {
                                result = Err(e);
                                failed2.store(true, Ordering::Relaxed);
                                break;
                            }
                        }
                        if result.is_ok()
                            && let Err(e) = sink.flush()
                        {
                            result = Err(e);
                            failed2.store(true, Ordering::Relaxed);
                        }
                    }
                    // The receiver may be gone when the run is over; that is fine.
                    let _ = back_tx.send(blocks);
                }
                if result.is_ok() {
                    result = sink.flush();
                }
                (sink, result)
            })
            .ok();
        if handle.is_none() {
            failed.store(true, Ordering::Relaxed);
        }
        Writer {
            tx: Some(tx),
            back,
            handle,
            spare: vec![Vec::new(), Vec::new()],
            failed,
        }
    }

    /// A block vector to fill (recycled from earlier windows when possible).
    pub fn take_blocks(&mut self) -> Vec<Block<S>> {
        if let Some(v) = self.spare.pop() {
            return v;
        }
        self.back.recv().unwrap_or_default()
    }

    /// A block vector the writer is done with, if one is back (never waits).
    pub fn try_take_blocks(&mut self) -> Option<Vec<Block<S>>> {
        self.spare.pop().or_else(|| self.back.try_recv().ok())
    }

    /// Hands a filled window to the writer.
    pub fn send(&mut self, blocks: Vec<Block<S>>) {
        if let Some(tx) = &self.tx
            && tx.send(blocks).is_err()
        {
            self.failed.store(true, Ordering::Relaxed);
        }
    }

    /// True if writing has failed (the run should stop; [`Writer::finish`] says why).
    pub fn failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    /// Waits for everything sent to be written and flushed; returns the sink and the first
    /// write error, if any.
    pub fn finish(mut self) -> (Option<Sink>, io::Result<()>) {
        drop(self.tx.take());
        match self.handle.take().map(|h| h.join()) {
            Some(Ok((sink, r))) => (Some(sink), r),
            Some(Err(_)) => (None, Err(io::Error::other("writer thread panicked"))),
            None => (
                None,
                Err(io::Error::other("could not start the writer thread")),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pacer_grows_fast_windows_and_shrinks_slow_ones_within_bounds() {
        let mut p = Pacer::new(2, 8192);
        assert_eq!(p.size(), 16);
        // Fast windows double up to the maximum.
        for _ in 0..20 {
            let n = p.size();
            p.record(n, 0.01);
        }
        assert_eq!(p.size(), 8192);
        // A short last window says nothing.
        p.record(10, 30.0);
        assert_eq!(p.size(), 8192);
        // Slow windows halve down to one item per worker.
        for _ in 0..20 {
            let n = p.size();
            p.record(n, 5.0);
        }
        assert_eq!(p.size(), 2);
        // In between, the size stays.
        p.record(2, 0.5);
        assert_eq!(p.size(), 2);
        assert_eq!(Pacer::new(4, 3).size(), 3);
    }

    #[test]
    fn a_stream_hands_blocks_on_in_order_and_stops_when_told() {
        let engine = Engine::new(2, Arc::new(AtomicBool::new(false)), |_| ()).unwrap();
        let item = |_: &mut (), i: usize, b: &mut Block<u32>| {
            if i % 37 == 5 {
                // A slow item: the other worker runs ahead meanwhile.
                std::thread::sleep(std::time::Duration::from_millis(3));
            }
            assert!(i != 1234, "a panicking item");
            b.out.extend_from_slice(&(i as u32).to_le_bytes());
            b.stats += 1;
        };
        let on_panic = |_: usize, b: &mut Block<u32>| b.out.extend_from_slice(b"oops");
        for (n, size) in [(0, 1), (1, 1), (7, 3), (200, 4), (2000, 16)] {
            let (mut got, mut firsts, mut items) = (Vec::new(), Vec::new(), 0);
            let all = engine.stream(n, size, item, on_panic, |first, b, spare| {
                firsts.push(first);
                got.extend_from_slice(&b.out);
                items += b.stats;
                spare.push(b);
                true
            });
            assert!(all, "n {n}");
            let want: Vec<u8> = (0..n as u32)
                .flat_map(|i| if i == 1234 { *b"oops" } else { i.to_le_bytes() })
                .collect();
            assert_eq!(got, want, "n {n}");
            assert_eq!(items as usize, n - usize::from(n > 1234));
            let blocks: Vec<usize> = (0..n.div_ceil(size)).map(|b| b * size).collect();
            assert_eq!(firsts, blocks, "n {n}");
        }
        // Told to stop after the third block: nothing after it is handed on.
        let mut handed = 0;
        let all = engine.stream(1000, 5, item, on_panic, |_, _, _| {
            handed += 1;
            handed < 3
        });
        assert!(!all);
        assert_eq!(handed, 3);
    }

    #[test]
    fn small_windows_are_cut_into_blocks_for_every_worker() {
        let engine = Engine::new(2, Arc::new(AtomicBool::new(false)), |_| ()).unwrap();
        for n in [1, 2, 7, 60, 64, 200, 5000] {
            let mut blocks: Vec<Block<u32>> = Vec::new();
            engine.run(
                n,
                &mut blocks,
                |_, i, b| {
                    b.out.extend_from_slice(&(i as u32).to_le_bytes());
                    b.stats += 1;
                },
                |_, _| {},
            );
            assert!(blocks.len() >= n.min(8), "n {n}: {} blocks", blocks.len());
            let all: Vec<u8> = blocks.iter().flat_map(|b| b.out.clone()).collect();
            let want: Vec<u8> = (0..n as u32).flat_map(|i| i.to_le_bytes()).collect();
            assert_eq!(all, want, "n {n}");
            assert!(blocks.iter().all(|b| b.done && b.out.len() <= 4 * BLOCK));
        }
    }
}
