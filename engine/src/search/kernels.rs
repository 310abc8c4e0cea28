//! The endgame and midgame kernels instantiated for each move-generation backend. Each backend's endgame kernel orders
//! its moves with the same backend's midgame search, and the midgame kernel hands lines near the end to the endgame
//! kernel, so the two are instantiated side by side here; the kernel definitions (`endgame.rs`, `midgame/kernel.rs`)
//! and their shared core (`core.rs`) do not depend on each other.

/// The portable kernels.
#[allow(unsafe_code)]
pub(crate) mod portable {
    /// The exact endgame search.
    pub(crate) mod endgame {
        crate::search::endgame::endgame_kernel!(crate::flip::portable, crate::search::kernels::portable::midgame);
    }

    /// The midgame search.
    // The hot functions take the position as separate words (kept in registers) rather than one struct.
    #[allow(clippy::too_many_arguments)]
    pub(crate) mod midgame {
        crate::search::midgame::kernel::midgame_kernel!(
            crate::flip::portable,
            crate::search::kernels::portable::endgame
        );
    }
}

/// The AVX2 kernels.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod avx2 {
    /// The exact endgame search.
    pub(crate) mod endgame {
        crate::search::endgame::endgame_kernel!(
            crate::flip::avx2,
            crate::search::kernels::avx2::midgame,
            "avx2,bmi1,bmi2,popcnt,lzcnt"
        );
    }

    /// The midgame search.
    // The hot functions take the position as separate words (kept in registers) rather than one struct.
    #[allow(clippy::too_many_arguments)]
    pub(crate) mod midgame {
        crate::search::midgame::kernel::midgame_kernel!(
            crate::flip::avx2,
            crate::search::kernels::avx2::endgame,
            "avx2,bmi1,bmi2,popcnt,lzcnt"
        );
    }
}

/// The AVX-512 kernels.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
pub(crate) mod avx512 {
    /// The exact endgame search.
    pub(crate) mod endgame {
        crate::search::endgame::endgame_kernel!(
            crate::flip::avx512,
            crate::search::kernels::avx512::midgame,
            "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512cd"
        );
    }

    /// The midgame search.
    // The hot functions take the position as separate words (kept in registers) rather than one struct.
    #[allow(clippy::too_many_arguments)]
    pub(crate) mod midgame {
        crate::search::midgame::kernel::midgame_kernel!(
            crate::flip::avx512,
            crate::search::kernels::avx512::endgame,
            "avx2,bmi1,bmi2,popcnt,lzcnt,avx512f,avx512vl,avx512cd"
        );
    }
}
