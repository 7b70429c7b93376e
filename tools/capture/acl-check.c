/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * perfbuf-capture-acl-check: reports whether folders and files have the
 * security perfbuf-capture gives its output, for ci/capture-wine.sh.
 *
 *   perfbuf-capture-acl-check PATH...
 *
 * One line per PATH: its owner and DACL in SDDL, and the verdict. Exit 0
 * when every PATH is owned by the current user and has a protected DACL of
 * exactly two ACEs, full access for that user and for BUILTIN\Administrators
 * (inherited by files and folders when PATH is a folder); 1 when some PATH
 * falls short of that but still lets in nobody but the user, Administrators
 * and SYSTEM (Wine, which reports a DACL made from the Unix permission bits
 * rather than the one set); 3 when some PATH is not owned by the user or has
 * an ACE for anyone else; 2 on errors.
 */
#include <windows.h>

#include <aclapi.h>
#include <sddl.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

enum { EXACT = 0, NARROW = 1, ERRORS = 2, OPEN = 3 };

static PSID sid_of(WELL_KNOWN_SID_TYPE type)
{
    DWORD size = SECURITY_MAX_SID_SIZE;
    PSID sid = malloc(size);
    if (sid == NULL || !CreateWellKnownSid(type, NULL, sid, &size)) {
        fprintf(stderr, "acl-check: cannot make a well-known SID (error %lu)\n",
                (unsigned long)GetLastError());
        exit(ERRORS);
    }
    return sid;
}

static int check(const char *arg, PSID user, PSID admins, PSID system)
{
    wchar_t path[1024];
    if (MultiByteToWideChar(CP_ACP, 0, arg, -1, path, 1024) == 0) {
        fprintf(stderr, "acl-check: %s: cannot convert the path\n", arg);
        return ERRORS;
    }
    DWORD attrs = GetFileAttributesW(path);
    if (attrs == INVALID_FILE_ATTRIBUTES) {
        fprintf(stderr, "acl-check: %s: not found (error %lu)\n", arg, (unsigned long)GetLastError());
        return ERRORS;
    }
    bool folder = (attrs & FILE_ATTRIBUTE_DIRECTORY) != 0;
    PSID owner = NULL;
    PACL dacl = NULL;
    PSECURITY_DESCRIPTOR sd = NULL;
    DWORD rc = GetNamedSecurityInfoW(path, SE_FILE_OBJECT,
                                     OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
                                     &owner, NULL, &dacl, NULL, &sd);
    if (rc != ERROR_SUCCESS) {
        fprintf(stderr, "acl-check: %s: cannot read its security (error %lu)\n", arg,
                (unsigned long)rc);
        return ERRORS;
    }
    SECURITY_DESCRIPTOR_CONTROL control = 0;
    DWORD revision = 0;
    if (!GetSecurityDescriptorControl(sd, &control, &revision)) {
        fprintf(stderr, "acl-check: %s: cannot read its control flags\n", arg);
        return ERRORS;
    }
    wchar_t *sddl = NULL;
    if (!ConvertSecurityDescriptorToStringSecurityDescriptorW(
            sd, SDDL_REVISION_1, OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION, &sddl,
            NULL)) {
        sddl = NULL;
    }

    bool owned = owner != NULL && EqualSid(owner, user);
    bool protected_dacl = (control & SE_DACL_PROTECTED) != 0;
    /* A missing (NULL) DACL lets everyone in. */
    bool others = dacl == NULL;
    unsigned user_aces = 0;
    unsigned admin_aces = 0;
    unsigned other_aces = 0;
    BYTE inherit = folder ? (BYTE)(OBJECT_INHERIT_ACE | CONTAINER_INHERIT_ACE) : (BYTE)0;
    for (DWORD i = 0; dacl != NULL && i < dacl->AceCount; i++) {
        void *raw = NULL;
        if (!GetAce(dacl, i, &raw)) {
            fprintf(stderr, "acl-check: %s: cannot read ACE %lu\n", arg, (unsigned long)i);
            return ERRORS;
        }
        const ACE_HEADER *ace = raw;
        if (ace->AceType != ACCESS_ALLOWED_ACE_TYPE) {
            other_aces++; /* a deny or audit ACE is not what the tool sets */
            continue;
        }
        ACCESS_ALLOWED_ACE *allow = raw; /* ACEs in an ACL are 4-byte aligned */
        PSID sid = (PSID)&allow->SidStart;
        bool full = allow->Mask == FILE_ALL_ACCESS && ace->AceFlags == inherit;
        if (EqualSid(sid, user)) {
            user_aces += full ? 1u : 0u;
            other_aces += full ? 0u : 1u;
        } else if (EqualSid(sid, admins)) {
            admin_aces += full ? 1u : 0u;
            other_aces += full ? 0u : 1u;
        } else if (EqualSid(sid, system)) {
            other_aces++;
        } else {
            others = true;
        }
    }
    bool exact = owned && protected_dacl && !others && dacl != NULL && dacl->AceCount == 2 &&
                 user_aces == 1 && admin_aces == 1 && other_aces == 0;
    printf("%s: %ls; DACL %s; %s\n", arg, sddl != NULL ? sddl : L"(no SDDL)",
           protected_dacl ? "protected" : "not protected",
           exact            ? "exactly the user and Administrators"
           : !owned         ? "NOT OWNED BY THE USER"
           : others         ? "OPEN TO OTHERS"
                            : "not exactly the user and Administrators, but nobody else");
    LocalFree(sddl);
    LocalFree(sd);
    return exact ? EXACT : (!owned || others) ? OPEN : NARROW;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: perfbuf-capture-acl-check PATH...\n");
        return ERRORS;
    }
    HANDLE token;
    DWORD size = 0;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) {
        fprintf(stderr, "acl-check: cannot open the process token\n");
        return ERRORS;
    }
    GetTokenInformation(token, TokenUser, NULL, 0, &size);
    TOKEN_USER *user = size >= sizeof(TOKEN_USER) ? malloc(size) : NULL;
    if (user == NULL || !GetTokenInformation(token, TokenUser, user, size, &size)) {
        fprintf(stderr, "acl-check: cannot read the user of the process token\n");
        return ERRORS;
    }
    PSID admins = sid_of(WinBuiltinAdministratorsSid);
    PSID system = sid_of(WinLocalSystemSid);
    int worst = EXACT;
    for (int i = 1; i < argc; i++) {
        int verdict = check(argv[i], user->User.Sid, admins, system);
        /* Errors and open paths outrank a DACL that is merely not exact. */
        if (verdict == OPEN || (verdict == ERRORS && worst != OPEN) ||
            (verdict == NARROW && worst == EXACT)) {
            worst = verdict;
        }
    }
    return worst;
}
