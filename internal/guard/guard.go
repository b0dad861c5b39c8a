// Package guard runs work on other goroutines without letting a panic
// there end the process: Go cannot recover a panic on another goroutine,
// so a bug in a worker (a nil dereference on hostile input) would kill the
// process by SIGABRT instead of the promised exit status 3 with a message.
// A Group recovers each worker's panic and raises it again, with the
// worker's stack, on the goroutine that waits; Catch does the same for a
// lone goroutine that hands back an error.
package guard

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// Panic is a panic recovered on a worker goroutine.
type Panic struct {
	// Value is what the worker panicked with.
	Value any
	// Stack is the worker's stack at the panic.
	Stack []byte
}

func (p *Panic) Error() string { return fmt.Sprintf("%v", p.Value) }

// String is Error, so that %v of a re-raised panic reads as the original.
func (p *Panic) String() string { return p.Error() }

// Group runs functions on goroutines and waits for them. The zero value
// is ready to use.
type Group struct {
	wg    sync.WaitGroup
	mu    sync.Mutex
	first *Panic
}

// Go runs f on a new goroutine; a panic in f is kept for Wait.
func (g *Group) Go(f func()) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				g.mu.Lock()
				if g.first == nil {
					g.first = asPanic(r)
				}
				g.mu.Unlock()
			}
		}()
		f()
	}()
}

// Wait waits for every function Go started; if one panicked, Wait panics
// with the first *Panic on the caller's goroutine, where a recover (the
// command line's, which exits 3) can catch it.
func (g *Group) Wait() {
	g.wg.Wait()
	if g.first != nil {
		panic(g.first)
	}
}

// Catch, deferred at the top of a goroutine, turns a panic into an error
// in *err (a *Panic), for goroutines that hand their result back on a
// channel: `defer guard.Catch(&res.err)`.
func Catch(err *error) {
	if r := recover(); r != nil {
		*err = asPanic(r)
	}
}

func asPanic(r any) *Panic {
	if p, ok := r.(*Panic); ok {
		return p
	}
	return &Panic{Value: r, Stack: debug.Stack()}
}

// Do runs f on the caller's goroutine, keeping a panic in f for Wait
// instead of letting it unwind: a worker that loops over a channel keeps
// draining it, so the sender never blocks on a worker that died.
func (g *Group) Do(f func()) {
	defer func() {
		if r := recover(); r != nil {
			g.mu.Lock()
			if g.first == nil {
				g.first = asPanic(r)
			}
			g.mu.Unlock()
		}
	}()
	f()
}

// Each calls f(i) for every i in [0, n) on up to workers goroutines (at
// least one) and returns when all calls are done. A panic in one call
// does not stop the others; Each then panics with the first, as a *Panic
// with the worker's stack, on its caller's goroutine.
func Each(n, workers int, f func(i int)) {
	var g Group
	next := make(chan int)
	for range max(1, min(workers, n)) {
		g.Go(func() {
			for i := range next {
				g.Do(func() { f(i) })
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	g.Wait()
}
