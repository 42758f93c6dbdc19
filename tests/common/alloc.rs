//! A counting global allocator for the no-allocation tests. A test file installs it with
//! `#[global_allocator] static GLOBAL: Counting = Counting;` and measures a closure with
//! [`allocations`]. Only the calling thread is counted, and only inside [`allocations`]
//! (the test harness allocates on other threads, e.g. for its timers).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Forwards every call to the system allocator; counts allocations and reallocations.
pub struct Counting;

thread_local! {
    /// True on this thread while [`allocations`] runs its closure.
    static ON: Cell<bool> = const { Cell::new(false) };
    /// Allocations counted on this thread.
    static COUNT: Cell<usize> = const { Cell::new(0) };
}

fn note() {
    if ON.try_with(Cell::get).unwrap_or(false) {
        let _ = COUNT.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: every call is forwarded unchanged to the system allocator; it only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Runs `f` and returns how many allocations this thread made meanwhile.
pub fn allocations(f: impl FnOnce()) -> usize {
    let before = COUNT.with(Cell::get);
    ON.with(|c| c.set(true));
    f();
    ON.with(|c| c.set(false));
    COUNT.with(Cell::get) - before
}
