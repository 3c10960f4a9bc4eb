typedef unsigned long u64;
extern void sol_log_(const char *, u64);
extern void sol_log_64_(u64, u64, u64, u64, u64);
static const char *const names[] = {"one", "two", "three"};
static const u64 lens[] = {3, 3, 5};
__attribute__((noinline)) static u64 helper(u64 x) { return x * 3 + 1; }
__attribute__((noinline)) u64 global_fn(u64 a) { return a + 7; }
u64 entrypoint(const unsigned char *input) {
    sol_log_("hello from C", 12);
    u64 i = input[1] % 3;
    sol_log_(names[i], lens[i]);
    u64 v = helper(input[0]) + global_fn(input[2]);
    sol_log_64_(v, 0, 0, 0, 0);
    return v;
}
