/* A stand-in for Windows' bcryptprimitives.dll under Debian's Wine 8, which lacks it: Rust's
 * standard library (1.78 and later) takes its random bytes from ProcessPrng there, and a
 * program that imports a missing DLL does not start. Built with mingw-w64 by
 * scripts/windows-test.sh into the test's own Wine prefix only; Windows 10 and later have
 * the real one. ProcessPrng fills the buffer from the system's generator (advapi32's
 * RtlGenRandom, SystemFunction036) and, as documented, always succeeds. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, n)) {
            return FALSE;
        }
        data += n;
        len -= n;
    }
    return TRUE;
}
