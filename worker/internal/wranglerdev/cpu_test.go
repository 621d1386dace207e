package wranglerdev

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ticks is the kernel's other account of a process's CPU: utime+stime in
// 10 ms ticks.
func ticks(t *testing.T, pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	require.NoError(t, err)
	st := string(b)
	f := strings.Fields(st[strings.LastIndexByte(st, ')')+2:])
	var ut, stime int64
	fmt.Sscan(f[11], &ut)
	fmt.Sscan(f[12], &stime)
	return time.Duration(ut+stime) * (time.Second / 100)
}

// ProcessCPU agrees with the kernel's tick count over a stretch of busy
// work in this process (to a few ticks), and is finer than it.
func TestProcessCPUAgreesWithTicks(t *testing.T) {
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc")
	}
	pid := os.Getpid()
	c0, t0 := ProcessCPU(pid), ticks(t, pid)
	x := uint64(1)
	for deadline := time.Now().Add(10 * time.Second); ticks(t, pid)-t0 < 300*time.Millisecond && time.Now().Before(deadline); {
		for i := 0; i < 1_000_000; i++ {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	c1, t1 := ProcessCPU(pid), ticks(t, pid)
	require.NotZero(t, x)
	dc, dt := c1-c0, t1-t0
	require.GreaterOrEqual(t, dt, 300*time.Millisecond, "the loop ran")
	assert.InDelta(t, float64(dt), float64(dc), float64(50*time.Millisecond+dt/10), "schedstat %v, ticks %v", dc, dt)
	assert.NotZero(t, dc%(10*time.Millisecond), "nanoseconds, not ticks")
}
