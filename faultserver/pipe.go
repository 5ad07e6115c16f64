package faultserver

import (
	"context"
	"net"
	"sync"
)

// pipeListener is a net.Listener whose connections are net.Pipe ends handed
// over a channel. Everything it blocks on is a channel, so it blocks
// durably inside a testing/synctest bubble, where loopback sockets do not.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// Accept implements net.Listener.
func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

// Close implements net.Listener.
func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

// Addr implements net.Listener.
func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

// dial connects to the listener, whatever network and address say; it is
// the DialContext of the server's Transport.
func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
	case <-ctx.Done():
	}
	_ = client.Close()
	_ = server.Close()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
		return nil, &net.OpError{Op: "dial", Net: "pipe", Err: net.ErrClosed}
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "faultserver.test" }
