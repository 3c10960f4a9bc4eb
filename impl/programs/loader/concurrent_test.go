package loader

import (
	"sync"
	"testing"

	"ledgerd/impl/core"
	"ledgerd/impl/runtime"
	"ledgerd/impl/sbpf/sbpftest"
)

// Banks running the same and different deployments at once share the program cache (run with
// -race): each sees its own program's output.
func TestConcurrentExecutions(t *testing.T) {
	id := testKey(100).PublicKey()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := newVMBank(t)
			payer := testKey(101)
			b.accounts[payer.PublicKey()] = runtime.Account{Lamports: 1e15, Owner: core.SystemProgramID}
			// Two goroutines share one deployment, two others each have their own bytes at the
			// same id, so the cache entry keeps changing under them.
			msg := "shared"
			if g >= 2 {
				msg = "own " + string(rune('a'+g))
			}
			elf := sbpftest.MustELF("lddw r1, rodata+0\nmov64 r2, "+string(rune('0'+len(msg)))+"\ncall sol_log_\nmov64 r0, 0\nexit", []byte(msg))
			b.addProgram(id, core.BPFLoaderProgramID, elf, 0)
			for i := range 200 {
				res := b.run([]core.Instruction{{ProgramID: id, Data: []byte{byte(i)}}}, payer)
				if res.Err != nil || len(res.Logs) != 4 || res.Logs[1] != "Program log: "+msg {
					t.Errorf("goroutine %d: %v %q", g, res.Err, res.Logs)
					return
				}
			}
		}()
	}
	wg.Wait()
}
