//! The in-memory compilation cache: a bounded LRU with single flight.
//!
//! One mutex guards a map from [`Key`] to a slot that is either a finished
//! executable (with its last-use tick) or a compilation in flight. A lookup
//! that finds a finished executable is a hit; one that finds a compilation in
//! flight waits for it (a hit that waited: concurrent requests for one key
//! compile once); one that finds nothing inserts an in-flight slot, compiles
//! outside the lock, and publishes the result to the waiters. Failed
//! compilations are not cached: the waiters get the error, the next request
//! tries again. Past the capacity the least recently used finished executable
//! is evicted (executables still held by callers stay alive through their
//! `Arc`).

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};

use crate::executable::Executable;
use crate::key::Key;
use crate::stats::Counters;
use crate::{JitError, lock};

type Outcome = Result<Arc<Executable>, JitError>;

/// A compilation in flight and the threads waiting for it.
struct Flight {
    result: Mutex<Option<Outcome>>,
    cv: Condvar,
}

impl Flight {
    fn wait(&self) -> Outcome {
        let mut r = lock(&self.result);
        loop {
            if let Some(outcome) = &*r {
                return outcome.clone();
            }
            r = self.cv.wait(r).unwrap_or_else(|e| e.into_inner());
        }
    }

    fn complete(&self, outcome: Outcome) {
        *lock(&self.result) = Some(outcome);
        self.cv.notify_all();
    }
}

enum Slot {
    Ready { exe: Arc<Executable>, used: u64 },
    Pending(Arc<Flight>),
}

struct State {
    map: HashMap<Key, Slot>,
    clock: u64,
    ready: usize,
}

pub(crate) struct Cache {
    state: Mutex<State>,
    capacity: usize,
}

/// Completes a flight with an error if the compilation unwinds, so waiters
/// never hang.
struct FlightGuard<'a> {
    cache: &'a Cache,
    key: Key,
    flight: Arc<Flight>,
    done: bool,
}

impl Drop for FlightGuard<'_> {
    fn drop(&mut self) {
        if !self.done {
            lock(&self.cache.state).map.remove(&self.key);
            self.flight.complete(Err(JitError::Internal("compilation panicked".into())));
        }
    }
}

impl Cache {
    pub(crate) fn new(capacity: usize) -> Cache {
        Cache { state: Mutex::new(State { map: HashMap::new(), clock: 0, ready: 0 }), capacity: capacity.max(1) }
    }

    /// Finished executables held.
    pub(crate) fn len(&self) -> usize {
        lock(&self.state).ready
    }

    /// The executable for `key`, compiled by `build` if no one has (or is).
    pub(crate) fn get_or_build(&self, key: Key, counters: &Counters, build: impl FnOnce() -> Outcome) -> Outcome {
        let flight = {
            let mut st = lock(&self.state);
            st.clock += 1;
            let now = st.clock;
            match st.map.get_mut(&key) {
                Some(Slot::Ready { exe, used }) => {
                    *used = now;
                    counters.hits.fetch_add(1, Ordering::Relaxed);
                    return Ok(exe.clone());
                }
                Some(Slot::Pending(f)) => {
                    let f = f.clone();
                    drop(st);
                    counters.hits.fetch_add(1, Ordering::Relaxed);
                    counters.waits.fetch_add(1, Ordering::Relaxed);
                    return f.wait();
                }
                None => {
                    let f = Arc::new(Flight { result: Mutex::new(None), cv: Condvar::new() });
                    st.map.insert(key, Slot::Pending(f.clone()));
                    counters.misses.fetch_add(1, Ordering::Relaxed);
                    f
                }
            }
        };
        let mut guard = FlightGuard { cache: self, key, flight, done: false };
        let outcome = build();
        {
            let mut st = lock(&self.state);
            match &outcome {
                Ok(exe) => {
                    let used = st.clock;
                    st.map.insert(key, Slot::Ready { exe: exe.clone(), used });
                    st.ready += 1;
                    while st.ready > self.capacity {
                        let victim = st
                            .map
                            .iter()
                            .filter_map(|(k, s)| match s {
                                Slot::Ready { used, .. } if *k != key => Some((*used, *k)),
                                _ => None,
                            })
                            .min();
                        let Some((_, victim)) = victim else { break };
                        st.map.remove(&victim);
                        st.ready -= 1;
                        counters.evictions.fetch_add(1, Ordering::Relaxed);
                    }
                }
                Err(_) => {
                    st.map.remove(&key);
                }
            }
        }
        guard.done = true;
        guard.flight.complete(outcome.clone());
        outcome
    }
}
