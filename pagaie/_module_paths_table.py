"""Paddle 3.3.1's implementation modules and the public names each one defines.

``TABLE[module][public_module]`` lists, space-separated, the names that ``paddle.<module>``
defines and that are the very objects ``paddle.<public_module>.<name>`` (``""``: top level);
``local:public`` where the two names differ. Generated against real Paddle 3.3.1 (see
:mod:`pagaie._module_paths`, which loads it on the first import it is needed for).
"""
# flake8: noqa: E501
TABLE = {
    'amp.grad_scaler': {
        'amp': 'GradScaler',
    },
    'autograd.autograd': {
        'autograd': 'hessian jacobian',
    },
    'autograd.backward_mode': {
        'autograd': 'backward',
    },
    'autograd.py_layer': {
        'autograd': 'PyLayer PyLayerContext',
    },
    'base': {
        '': 'CPUPlace CUDAPinnedPlace CUDAPlace ParamAttr XPUPinnedPlace disable_dygraph:enable_static disable_imperative:enable_static enable_dygraph:disable_static enable_imperative:disable_static get_flags in_dygraph_mode:in_dynamic_mode set_flags',
        'device': 'is_compiled_with_cinn is_compiled_with_cuda is_compiled_with_rocm',
        'nn.initializer': 'set_global_initializer',
        'static': 'BuildStrategy CompiledProgram Executor IpuCompiledProgram IpuStrategy Program Variable WeightNormParamAttr append_backward cpu_places cuda_places default_main_program default_startup_program device_guard global_scope gradients ipu_shard_guard name_scope program_guard scope_guard set_ipu_shard xpu_places',
        'utils': 'require_version',
    },
    'base.backward': {
        'static': 'append_backward gradients',
    },
    'base.compiler': {
        'static': 'CompiledProgram IpuCompiledProgram IpuStrategy',
    },
    'base.data_feeder': {
        '': 'check_shape',
    },
    'base.dygraph': {
        '': 'disable_dygraph:enable_static enable_dygraph:disable_static grad no_grad_:no_grad',
    },
    'base.dygraph.base': {
        '': 'disable_dygraph:enable_static enable_dygraph:disable_static enable_grad grad is_grad_enabled no_grad_:no_grad set_grad_enabled',
    },
    'base.executor': {
        'static': 'Executor global_scope scope_guard',
    },
    'base.framework': {
        '': 'disable_signal_handler get_flags in_dygraph_mode:in_dynamic_mode set_flags',
        'device': 'is_compiled_with_cinn is_compiled_with_cuda is_compiled_with_distribute is_compiled_with_rocm',
        'nn': 'EagerParamBase:Parameter',
        'static': 'Variable cpu_places cuda_places device_guard ipu_shard_guard name_scope set_ipu_shard xpu_places',
        'utils': 'require_version',
    },
    'base.initializer': {
        'nn.initializer': 'set_global_initializer',
    },
    'base.param_attr': {
        '': 'ParamAttr',
        'static': 'WeightNormParamAttr',
    },
    'compat': {
        '': 'b1:bool bf:bfloat16 f2:half f4:float f8:double i1:int8 i2:int16 i4:int32 i8:int64 u1:uint8',
    },
    'compat.nn.functional': {
        '': 'softmax',
    },
    'compat.proxy': {
        '': 'disable_torch_proxy:disable_compat enable_torch_proxy:enable_compat use_torch_proxy_guard:use_compat_guard',
    },
    'cuda': {
        '': 'BFloat16Tensor BoolTensor ByteTensor CharTensor DoubleTensor FloatTensor HalfTensor IntTensor LongTensor ShortTensor',
        'device': 'Event Stream StreamContext device ipc_collect is_bf16_supported manual_seed reset_peak_memory_stats set_stream',
    },
    'device.cpu': {
        'device': 'device_count get_rng_state manual_seed max_memory_allocated max_memory_reserved reset_max_memory_allocated reset_max_memory_reserved set_rng_state',
    },
    'distributed.auto_parallel': {
        'distributed': 'ProcessMesh get_mesh set_mesh',
    },
    'distributed.auto_parallel.api': {
        'distributed': 'DistAttr DistModel ShardingStage1 ShardingStage2 ShardingStage3 Strategy dtensor_from_fn reshard shard_dataloader shard_layer shard_optimizer shard_scaler shard_tensor to_static unshard_dtensor',
    },
    'distributed.auto_parallel.high_level_api': {
        'distributed': 'to_distributed',
    },
    'distributed.auto_parallel.interface': {
        'distributed': 'get_mesh set_mesh',
    },
    'distributed.auto_parallel.intermediate.context_parallel': {
        'distributed': 'ContextParallel PrepareContextParallel',
    },
    'distributed.auto_parallel.intermediate.parallelize': {
        'distributed': 'parallelize',
    },
    'distributed.auto_parallel.intermediate.pipeline_parallel': {
        'distributed': 'SplitPoint',
    },
    'distributed.auto_parallel.intermediate.tensor_parallel': {
        'distributed': 'ColWiseParallel ConvParallel PrepareLayerInput PrepareLayerOutput RowWiseParallel SequenceParallelBegin SequenceParallelDisable SequenceParallelEnable SequenceParallelEnd',
    },
    'distributed.auto_parallel.local_layer': {
        'distributed': 'LocalLayer',
    },
    'distributed.auto_parallel.local_map': {
        'distributed': 'local_map',
    },
    'distributed.auto_parallel.process_mesh': {
        'distributed': 'ProcessMesh',
    },
    'distributed.collective': {
        'distributed': 'is_available new_group restart_process_group shutdown_process_group',
    },
    'distributed.communication': {
        'distributed': 'ReduceOp all_gather all_gather_object all_reduce alltoall alltoall_single barrier broadcast broadcast_object_list destroy_process_group gather get_backend get_group irecv is_initialized isend recv recv_object_list reduce reduce_scatter scatter scatter_object_list send send_object_list wait',
    },
    'distributed.communication.all_to_all': {
        'distributed': 'alltoall alltoall_single',
    },
    'distributed.communication.group': {
        'distributed': 'barrier destroy_process_group get_backend get_group is_initialized wait',
    },
    'distributed.entry_attr': {
        'distributed': 'CountFilterEntry ProbabilityEntry ShowClickEntry',
    },
    'distributed.fleet.base.distributed_strategy': {
        'distributed.fleet': 'DistributedStrategy',
    },
    'distributed.fleet.base.role_maker': {
        'distributed.fleet': 'PaddleCloudRoleMaker Role UserDefinedRoleMaker',
    },
    'distributed.fleet.base.topology': {
        'distributed': 'ParallelMode create_nccl_config',
        'distributed.fleet': 'CommunicateTopology HybridCommunicateGroup',
    },
    'distributed.fleet.base.util_factory': {
        'distributed.fleet': 'UtilBase',
    },
    'distributed.fleet.data_generator': {
        'distributed.fleet': 'MultiSlotDataGenerator',
    },
    'distributed.fleet.data_generator.data_generator': {
        'distributed.fleet': 'MultiSlotDataGenerator MultiSlotStringDataGenerator',
    },
    'distributed.fleet.dataset': {
        'distributed': 'InMemoryDataset QueueDataset',
    },
    'distributed.fleet.dataset.dataset': {
        'distributed': 'InMemoryDataset QueueDataset',
    },
    'distributed.fleet.meta_optimizers.dygraph_optimizer.dygraph_sharding_optimizer': {
        'distributed': 'ShardedStateDict',
    },
    'distributed.fleet.meta_parallel.sharding.group_sharded_optimizer_stage2': {
        'distributed': 'ShardedStateDict',
    },
    'distributed.fleet.meta_parallel.sharding.group_sharded_stage3': {
        'distributed': 'ShardedStateDict',
    },
    'distributed.flex_checkpoint.dcp.load_state_dict': {
        'distributed': 'load_merged_state_dict load_state_dict',
    },
    'distributed.flex_checkpoint.dcp.save_state_dict': {
        'distributed': 'save_state_dict',
    },
    'distributed.flex_checkpoint.dcp.sharded_weight': {
        'distributed': 'ShardedStateDict ShardedWeight build_sharded_state_dict shard_weight',
    },
    'distributed.parallel': {
        '': 'DataParallel',
        'distributed': 'ParallelEnv get_rank get_world_size init_parallel_env',
    },
    'distributed.parallel_with_gloo': {
        'distributed': 'gloo_barrier gloo_init_parallel_env gloo_release',
    },
    'distribution.bernoulli': {
        'distribution': 'Bernoulli',
    },
    'distribution.beta': {
        'distribution': 'Beta',
    },
    'distribution.binomial': {
        'distribution': 'Binomial',
    },
    'distribution.categorical': {
        'distribution': 'Categorical',
    },
    'distribution.cauchy': {
        'distribution': 'Cauchy',
    },
    'distribution.chi2': {
        'distribution': 'Chi2',
    },
    'distribution.continuous_bernoulli': {
        'distribution': 'ContinuousBernoulli',
    },
    'distribution.dirichlet': {
        'distribution': 'Dirichlet',
    },
    'distribution.distribution': {
        'distribution': 'Distribution',
    },
    'distribution.exponential': {
        'distribution': 'Exponential',
    },
    'distribution.exponential_family': {
        'distribution': 'ExponentialFamily',
    },
    'distribution.gamma': {
        'distribution': 'Gamma',
    },
    'distribution.geometric': {
        'distribution': 'Geometric',
    },
    'distribution.gumbel': {
        'distribution': 'Gumbel',
    },
    'distribution.independent': {
        'distribution': 'Independent',
    },
    'distribution.kl': {
        'distribution': 'kl_divergence register_kl',
    },
    'distribution.laplace': {
        'distribution': 'Laplace',
    },
    'distribution.lkj_cholesky': {
        'distribution': 'LKJCholesky',
    },
    'distribution.lognormal': {
        'distribution': 'LogNormal',
    },
    'distribution.multinomial': {
        'distribution': 'Multinomial',
    },
    'distribution.multivariate_normal': {
        'distribution': 'MultivariateNormal',
    },
    'distribution.normal': {
        'distribution': 'Normal',
    },
    'distribution.poisson': {
        'distribution': 'Poisson',
    },
    'distribution.student_t': {
        'distribution': 'StudentT',
    },
    'distribution.transform': {
        'distribution': 'AbsTransform AffineTransform ChainTransform ExpTransform IndependentTransform PowerTransform ReshapeTransform SigmoidTransform SoftmaxTransform StackTransform StickBreakingTransform TanhTransform Transform',
    },
    'distribution.transformed_distribution': {
        'distribution': 'TransformedDistribution',
    },
    'distribution.uniform': {
        'distribution': 'Uniform',
    },
    'framework': {
        '': 'CPUPlace CUDAPinnedPlace CUDAPlace ParamAttr XPUPinnedPlace disable_signal_handler disable_static enable_static get_default_dtype get_flags grad in_dynamic_mode load no_grad save seed set_default_dtype set_flags',
    },
    'framework.dtype': {
        '': 'bfloat16 bool cdouble cfloat complex128 complex64 double finfo float float16 float32 float64 float8_e4m3fn float8_e5m2 half iinfo int:int32 int16 int32 int64 int8 long:int64 pstring raw short:int16 uint16 uint32 uint64 uint8',
    },
    'framework.framework': {
        '': 'get_default_dtype set_default_dtype',
    },
    'framework.io': {
        '': 'load save',
    },
    'framework.random': {
        '': 'Generator get_cuda_rng_state get_rng_state seed set_cuda_rng_state set_rng_state',
    },
    'functional': {
        '': 'atleast_1d atleast_2d atleast_3d broadcast_shapes einsum meshgrid unique_consecutive',
        'linalg': 'norm',
    },
    'geometric.math': {
        'geometric': 'segment_max segment_mean segment_min segment_sum',
    },
    'geometric.message_passing': {
        'geometric': 'send_u_recv send_ue_recv send_uv',
    },
    'geometric.message_passing.send_recv': {
        'geometric': 'send_u_recv send_ue_recv send_uv',
    },
    'geometric.reindex': {
        'geometric': 'reindex_graph reindex_heter_graph',
    },
    'geometric.sampling': {
        'geometric': 'sample_neighbors weighted_sample_neighbors',
    },
    'geometric.sampling.neighbors': {
        'geometric': 'sample_neighbors weighted_sample_neighbors',
    },
    'hapi.callbacks': {
        'callbacks': 'Callback EarlyStopping LRScheduler ModelCheckpoint ProgBarLogger ReduceLROnPlateau VisualDL WandbCallback',
    },
    'hapi.dynamic_flops': {
        'hapi': 'flops',
    },
    'hapi.model': {
        'hapi': 'Model',
    },
    'hapi.model_summary': {
        'hapi': 'summary',
    },
    'incubate.jit': {
        'incubate': 'inference',
    },
    'incubate.jit.inference_decorator': {
        'incubate': 'inference',
    },
    'incubate.nn.loss': {
        'incubate': 'identity_loss',
    },
    'incubate.operators': {
        'incubate': 'graph_khop_sampler graph_reindex graph_sample_neighbors graph_send_recv softmax_mask_fuse softmax_mask_fuse_upper_triangle',
    },
    'incubate.optimizer.lookahead': {
        'incubate': 'LookAhead',
    },
    'incubate.optimizer.modelaverage': {
        'incubate': 'ModelAverage',
    },
    'incubate.tensor': {
        'incubate': 'segment_max segment_mean segment_min segment_sum',
    },
    'incubate.tensor.math': {
        'incubate': 'segment_max segment_mean segment_min segment_sum',
    },
    'inference.wrapper': {
        'inference': 'convert_to_mixed_precision',
    },
    'io.dataloader': {
        'io': 'BatchSampler ChainDataset ComposeDataset ConcatDataset Dataset DistributedBatchSampler IterableDataset RandomSampler Sampler SequenceSampler Subset SubsetRandomSampler TensorDataset WeightedRandomSampler get_worker_info random_split',
    },
    'io.dataloader.batch_sampler': {
        'io': 'BatchSampler DistributedBatchSampler',
    },
    'io.dataloader.dataset': {
        'io': 'ChainDataset ComposeDataset ConcatDataset Dataset IterableDataset Subset TensorDataset random_split',
    },
    'io.dataloader.sampler': {
        'io': 'RandomSampler Sampler SequenceSampler SubsetRandomSampler WeightedRandomSampler',
    },
    'io.dataloader.worker': {
        'io': 'get_worker_info',
    },
    'io.reader': {
        'io': 'DataLoader',
    },
    'jit.api': {
        'jit': 'ignore_module load save to_static',
    },
    'jit.dy2static.logging_utils': {
        'jit': 'set_code_level set_verbosity',
    },
    'jit.dy2static.program_translator': {
        'jit': 'enable_to_static',
    },
    'jit.marker': {
        'jit': 'not_to_static',
    },
    'jit.translated_layer': {
        'jit': 'TranslatedLayer',
    },
    'metric.metrics': {
        'metric': 'Accuracy Auc Metric Precision Recall accuracy',
    },
    'nn.clip': {
        'nn': 'ClipGradByGlobalNorm ClipGradByNorm ClipGradByValue GradientClipByGlobalNorm:ClipGradByGlobalNorm GradientClipByNorm:ClipGradByNorm GradientClipByValue:ClipGradByValue',
    },
    'nn.decode': {
        'nn': 'BeamSearchDecoder dynamic_decode',
    },
    'nn.functional.activation': {
        'nn.functional': 'celu elu elu_ glu gumbel_softmax hardshrink hardsigmoid hardswish hardtanh hardtanh_ leaky_relu leaky_relu_ log_sigmoid log_softmax maxout mish prelu relu relu6 relu_ rrelu selu silu softmax softmax_ softshrink softsign swiglu swish tanhshrink thresholded_relu thresholded_relu_',
    },
    'nn.functional.common': {
        'nn.functional': 'alpha_dropout bilinear class_center_sample cosine_similarity dropout dropout1d dropout2d dropout3d feature_alpha_dropout fold interpolate label_smooth linear pad unfold upsample zeropad2d',
    },
    'nn.functional.conv': {
        'nn.functional': 'conv1d conv1d_transpose conv2d conv2d_transpose conv3d conv3d_transpose',
        '_ops.nn_conv': '_conv_nd',
    },
    'nn.functional.distance': {
        '': 'pdist',
        'nn.functional': 'pairwise_distance',
    },
    'nn.functional.extension': {
        'nn.functional': 'diag_embed gather_tree sequence_mask temporal_shift',
    },
    'nn.functional.flash_attention': {
        'nn.functional': 'flash_attention_v3_varlen flash_attn_qkvpacked flash_attn_varlen_qkvpacked flashmask_attention',
    },
    'nn.functional.input': {
        'nn.functional': 'embedding one_hot',
    },
    'nn.functional.loss': {
        'nn.functional': 'adaptive_log_softmax_with_loss binary_cross_entropy binary_cross_entropy_with_logits cosine_embedding_loss cross_entropy ctc_loss dice_loss gaussian_nll_loss hinge_embedding_loss hsigmoid_loss kl_div l1_loss log_loss margin_cross_entropy margin_ranking_loss mse_loss multi_label_margin_loss multi_label_soft_margin_loss multi_margin_loss nll_loss npair_loss poisson_nll_loss rnnt_loss sigmoid_focal_loss smooth_l1_loss soft_margin_loss softmax_with_cross_entropy square_error_cost triplet_margin_loss triplet_margin_with_distance_loss',
    },
    'nn.functional.norm': {
        'nn.functional': 'batch_norm group_norm instance_norm layer_norm local_response_norm normalize rms_norm',
    },
    'nn.functional.pooling': {
        'nn.functional': 'adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d adaptive_max_pool1d adaptive_max_pool2d adaptive_max_pool3d avg_pool1d avg_pool2d avg_pool3d fractional_max_pool2d fractional_max_pool3d lp_pool1d lp_pool2d max_pool1d max_pool2d max_pool3d max_unpool1d max_unpool2d max_unpool3d',
    },
    'nn.functional.sdpa': {
        'nn.functional': 'scaled_dot_product_attention',
    },
    'nn.functional.vision': {
        'nn.functional': 'affine_grid channel_shuffle pixel_shuffle pixel_unshuffle',
    },
    'nn.initializer.assign': {
        'nn.initializer': 'Assign',
    },
    'nn.initializer.bilinear': {
        'nn.initializer': 'Bilinear',
    },
    'nn.initializer.constant': {
        'nn.initializer': 'Constant',
    },
    'nn.initializer.dirac': {
        'nn.initializer': 'Dirac',
    },
    'nn.initializer.initializer': {
        'nn.initializer': 'calculate_gain',
    },
    'nn.initializer.kaiming': {
        'nn.initializer': 'KaimingNormal KaimingUniform',
    },
    'nn.initializer.lazy_init': {
        '': 'LazyGuard',
    },
    'nn.initializer.normal': {
        'nn.initializer': 'Normal TruncatedNormal',
    },
    'nn.initializer.orthogonal': {
        'nn.initializer': 'Orthogonal',
    },
    'nn.initializer.uniform': {
        'nn.initializer': 'Uniform',
    },
    'nn.initializer.xavier': {
        'nn.initializer': 'XavierNormal XavierUniform',
    },
    'nn.layer': {
        'nn': 'AdaptiveAvgPool1D AdaptiveAvgPool2D AdaptiveAvgPool3D AdaptiveLogSoftmaxWithLoss AdaptiveMaxPool1D AdaptiveMaxPool2D AdaptiveMaxPool3D AlphaDropout AvgPool1D AvgPool2D AvgPool3D BCELoss BCEWithLogitsLoss BatchNorm1D BatchNorm2D BatchNorm3D Bilinear CELU CTCLoss ChannelShuffle ConstantPad1D ConstantPad2D ConstantPad3D Conv1D Conv1DTranspose Conv2D Conv2DTranspose Conv3D Conv3DTranspose CosineSimilarity CrossEntropyLoss Dropout Dropout2D Dropout3D Embedding FeatureAlphaDropout Flatten Fold FractionalMaxPool2D FractionalMaxPool3D GaussianNLLLoss GroupNorm HingeEmbeddingLoss Identity KLDivLoss L1Loss LPPool1D LPPool2D Layer LayerDict LayerNorm LeakyReLU Linear LocalResponseNorm LogSoftmax MSELoss MarginRankingLoss MaxPool1D MaxPool2D MaxPool3D MaxUnPool1D MaxUnPool2D MaxUnPool3D MultiLabelMarginLoss MultiLabelSoftMarginLoss MultiMarginLoss NLLLoss PReLU Pad1D Pad2D Pad3D PairwiseDistance PixelShuffle PixelUnshuffle PoissonNLLLoss RNNTLoss RReLU ReLU ReLU6 ReflectionPad1D ReflectionPad2D ReflectionPad3D ReplicationPad1D ReplicationPad2D ReplicationPad3D Sigmoid SmoothL1Loss SoftMarginLoss Softmax Softmax2D SpectralNorm SyncBatchNorm TripletMarginLoss TripletMarginWithDistanceLoss Unflatten Upsample UpsamplingBilinear2D UpsamplingNearest2D ZeroPad2D',
    },
    'nn.layer.activation': {
        'nn': 'CELU ELU GELU GLU Hardshrink Hardsigmoid Hardswish Hardtanh LeakyReLU LogSigmoid LogSoftmax Maxout Mish PReLU RReLU ReLU ReLU6 SELU Sigmoid Silu Softmax Softmax2D Softplus Softshrink Softsign Swish Tanh Tanhshrink ThresholdedReLU',
    },
    'nn.layer.common': {
        'nn': 'AlphaDropout Bilinear CircularPad1D CircularPad2D CircularPad3D ConstantPad1D ConstantPad2D ConstantPad3D CosineSimilarity Dropout Dropout2D Dropout3D Embedding FeatureAlphaDropout Flatten Fold Identity Linear Pad1D Pad2D Pad3D ReflectionPad1D ReflectionPad2D ReflectionPad3D ReplicationPad1D ReplicationPad2D ReplicationPad3D Unflatten Unfold Upsample UpsamplingBilinear2D UpsamplingNearest2D ZeroPad1D ZeroPad2D ZeroPad3D',
    },
    'nn.layer.container': {
        'nn': 'LayerDict LayerList ParameterDict ParameterList Sequential',
    },
    'nn.layer.conv': {
        'nn': 'Conv1D Conv1DTranspose Conv2D Conv2DTranspose Conv3D Conv3DTranspose',
    },
    'nn.layer.distance': {
        'nn': 'PairwiseDistance',
    },
    'nn.layer.layers': {
        'distributed': 'ShardedStateDict',
        'nn': 'Layer',
    },
    'nn.layer.loss': {
        'nn': 'AdaptiveLogSoftmaxWithLoss BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss GaussianNLLLoss HSigmoidLoss HingeEmbeddingLoss KLDivLoss L1Loss MSELoss MarginRankingLoss MultiLabelMarginLoss MultiLabelSoftMarginLoss MultiMarginLoss NLLLoss PoissonNLLLoss RNNTLoss SmoothL1Loss SoftMarginLoss TripletMarginLoss TripletMarginWithDistanceLoss',
    },
    'nn.layer.norm': {
        'nn': 'BatchNorm BatchNorm1D BatchNorm2D BatchNorm3D GroupNorm InstanceNorm1D InstanceNorm2D InstanceNorm3D LayerNorm LocalResponseNorm SpectralNorm SyncBatchNorm',
    },
    'nn.layer.pooling': {
        'nn': 'AdaptiveAvgPool1D AdaptiveAvgPool2D AdaptiveAvgPool3D AdaptiveMaxPool1D AdaptiveMaxPool2D AdaptiveMaxPool3D AvgPool1D AvgPool2D AvgPool3D FractionalMaxPool2D FractionalMaxPool3D LPPool1D LPPool2D MaxPool1D MaxPool2D MaxPool3D MaxUnPool1D MaxUnPool2D MaxUnPool3D',
    },
    'nn.layer.rnn': {
        'nn': 'BiRNN GRU GRUCell LSTM LSTMCell RNN RNNCellBase SimpleRNN SimpleRNNCell',
    },
    'nn.layer.transformer': {
        'nn': 'MultiHeadAttention Transformer TransformerDecoder TransformerDecoderLayer TransformerEncoder TransformerEncoderLayer',
    },
    'nn.layer.vision': {
        'nn': 'ChannelShuffle PixelShuffle PixelUnshuffle',
    },
    'nn.modules': {
        'nn': 'Module',
    },
    'nn.utils.spectral_norm_hook': {
        'nn.utils': 'spectral_norm',
    },
    'nn.utils.transform_parameters': {
        'nn.utils': 'parameters_to_vector vector_to_parameters',
    },
    'nn.utils.weight_norm_hook': {
        'nn.utils': 'remove_weight_norm weight_norm',
    },
    'optimizer.adadelta': {
        'optimizer': 'Adadelta',
    },
    'optimizer.adagrad': {
        'optimizer': 'Adagrad',
    },
    'optimizer.adam': {
        'optimizer': 'Adam',
    },
    'optimizer.adamax': {
        'optimizer': 'Adamax',
    },
    'optimizer.adamw': {
        'distributed': 'ShardedStateDict',
        'optimizer': 'AdamW',
    },
    'optimizer.asgd': {
        'optimizer': 'ASGD',
    },
    'optimizer.lamb': {
        'optimizer': 'Lamb',
    },
    'optimizer.lbfgs': {
        'optimizer': 'LBFGS',
    },
    'optimizer.momentum': {
        'optimizer': 'Momentum',
    },
    'optimizer.nadam': {
        'optimizer': 'NAdam',
    },
    'optimizer.optimizer': {
        'optimizer': 'Optimizer',
    },
    'optimizer.radam': {
        'optimizer': 'RAdam',
    },
    'optimizer.rmsprop': {
        'optimizer': 'RMSProp',
    },
    'optimizer.rprop': {
        'optimizer': 'Rprop',
    },
    'optimizer.sgd': {
        'optimizer': 'SGD',
    },
    'profiler.profiler': {
        'profiler': 'Profiler ProfilerState ProfilerTarget SummaryView export_chrome_tracing export_protobuf make_scheduler',
    },
    'profiler.profiler_statistic': {
        'profiler': 'SortedKeys',
    },
    'profiler.utils': {
        'profiler': 'RecordEvent load_profiler_result',
    },
    'quantization.base_observer': {
        'quantization': 'BaseObserver',
    },
    'quantization.base_quanter': {
        'quantization': 'BaseQuanter',
    },
    'quantization.config': {
        'quantization': 'QuantConfig',
    },
    'quantization.factory': {
        'quantization': 'quanter',
    },
    'quantization.ptq': {
        'quantization': 'PTQ',
    },
    'quantization.qat': {
        'quantization': 'QAT',
    },
    'sparse.binary': {
        'sparse': 'add divide is_same_shape mask_as masked_matmul matmul multiply mv subtract',
    },
    'sparse.creation': {
        'sparse': 'sparse_coo_tensor sparse_csr_tensor',
    },
    'sparse.multiary': {
        'sparse': 'addmm',
    },
    'sparse.nn.functional.activation': {
        'sparse.nn.functional': 'leaky_relu relu relu6 softmax',
    },
    'sparse.nn.functional.conv': {
        'sparse': 'add',
        'sparse.nn.functional': 'conv2d conv3d subm_conv2d subm_conv2d_igemm subm_conv3d subm_conv3d_igemm',
    },
    'sparse.nn.functional.pooling': {
        'sparse.nn.functional': 'max_pool3d',
    },
    'sparse.nn.functional.transformer': {
        'sparse.nn.functional': 'attention',
    },
    'sparse.nn.layer.activation': {
        'sparse.nn': 'LeakyReLU ReLU ReLU6 Softmax',
    },
    'sparse.nn.layer.conv': {
        'sparse.nn': 'Conv2D Conv3D SubmConv2D SubmConv3D',
    },
    'sparse.nn.layer.norm': {
        'sparse.nn': 'BatchNorm SyncBatchNorm',
    },
    'sparse.nn.layer.pooling': {
        'sparse.nn': 'MaxPool3D',
    },
    'sparse.unary': {
        'sparse': 'abs asin asinh atan atanh cast coalesce deg2rad expm1 isnan log1p neg pca_lowrank pow rad2deg reshape sin sinh slice sqrt square sum tan tanh transpose',
    },
    'special': {
        '': 'softmax',
    },
    'static.input': {
        'static': 'InputSpec data',
    },
    'static.io': {
        'static': 'deserialize_persistables deserialize_program load load_from_file load_inference_model load_program_state normalize_program save save_inference_model save_to_file serialize_persistables serialize_program set_program_state',
    },
    'static.nn.common': {
        'static': 'ExponentialMovingAverage',
        'static.nn': 'batch_norm bilinear_tensor_product conv2d conv2d_transpose conv3d conv3d_transpose deform_conv2d embedding fc group_norm instance_norm layer_norm prelu py_func row_conv sparse_embedding spectral_norm',
    },
    'static.nn.control_flow': {
        'static': 'Print',
        'static.nn': 'case cond switch_case while_loop',
    },
    'static.nn.loss': {
        'static.nn': 'nce',
    },
    'static.nn.metric': {
        'static': 'accuracy auc ctr_metric_bundle',
    },
    'static.nn.sequence_lod': {
        'static.nn': 'sequence_conv sequence_expand sequence_first_step sequence_last_step sequence_pool sequence_softmax',
    },
    'tensor.attribute': {
        '': 'imag is_complex is_floating_point is_integer rank real shape',
    },
    'tensor.compat_softmax': {
        '': 'softmax',
    },
    'tensor.creation': {
        '': 'BFloat16Tensor BoolTensor ByteTensor CharTensor DoubleTensor FloatTensor HalfTensor IntTensor LongTensor MmapStorage ShortTensor arange asarray assign cauchy_ clone complex create_parameter diag diag_embed diagflat empty empty_like eye from_numpy full full_like geometric_ linspace logspace meshgrid ones ones_like polar range tensor:as_tensor to_tensor tril_ tril_indices triu_ triu_indices zeros zeros_like',
        'static': 'create_global_var',
    },
    'tensor.linalg': {
        '': 'bincount cdist cross dist histogram histogram_bin_edges histogramdd matrix_transpose mv permute t t_ transpose transpose_ vecdot',
        'linalg': 'cholesky cholesky_inverse cholesky_solve cond corrcoef cov det eig eigh eigvals eigvalsh fp8_fp8_half_gemm_fused householder_product lstsq lu lu_solve lu_unpack matrix_exp matrix_norm matrix_power matrix_rank multi_dot norm ormqr pca_lowrank pinv qr slogdet solve svd svd_lowrank svdvals triangular_solve vector_norm',
    },
    'tensor.logic': {
        '': 'allclose bitwise_and bitwise_and_ bitwise_invert bitwise_invert_ bitwise_not bitwise_not_ bitwise_or bitwise_or_ bitwise_xor bitwise_xor_ equal equal_ equal_all greater_equal greater_equal_ greater_than_ gt is_empty is_tensor less_ less_equal less_equal_ less_than less_than_ logical_and_ logical_not_ logical_or_ not_equal',
    },
    'tensor.manipulation': {
        '': 'as_complex as_real as_strided atleast_1d atleast_2d atleast_3d block_diag broadcast_tensors broadcast_to cast cast_ chunk column_stack concat crop diagonal_scatter dsplit dstack expand flatten flatten_ flip func:tolist gather gather_nd hsplit hstack index_add index_add_ index_fill index_fill_ masked_fill masked_fill_ masked_scatter masked_scatter_ moveaxis narrow put_along_axis ravel repeat_interleave reshape reshape_ rot90 row_stack scatter scatter_ scatter_add scatter_add_ scatter_nd scatter_nd_add scatter_reduce select_scatter shard_index slice slice_scatter split squeeze squeeze_ stack strided_slice take_along_axis tensor_split tensordot tile tolist unbind unflatten unfold unique unique_consecutive unsqueeze unsqueeze_ unstack view view_as view_as_complex view_as_real vsplit vstack',
    },
    'tensor.math': {
        '': 'add add_n addmm addmm_ angle atan2 baddbmm baddbmm_ bitwise_left_shift bitwise_left_shift_ bitwise_right_shift bitwise_right_shift_ broadcast_shape broadcast_shapes cartesian_prod clip combinations conj copysign copysign_ count_nonzero cummax cummin cumprod cumprod_ cumsum cumsum_ cumulative_trapezoid deg2rad diff digamma digamma_ divide divide_ erfinv floor_divide floor_divide_ floor_mod floor_mod_ fmax fmin frac frac_ frexp gammainc gammainc_ gammaincc gammaincc_ gammaln gammaln_ gcd gcd_ heaviside hypot hypot_ i0 i0_ i0e i1 i1e increment inner isin isneginf isposinf isreal kron lcm lcm_ ldexp ldexp_ lerp lgamma lgamma_ log10_ log2_ log_ logaddexp logcumsumexp logit logit_ max min mm mod mod_ mul multigammaln multigammaln_ multiplex multiply_ nan_to_num nan_to_num_ nanmean nansum neg neg_ negative nextafter outer polygamma polygamma_ positive pow pow_ prod rad2deg reduce_as remainder remainder_ renorm renorm_ scale sgn signbit sinc sinc_ stanh subtract subtract_ take tanh_ trace trapezoid true_divide trunc trunc_ vander',
        'linalg': 'inverse:inv',
    },
    'tensor.ops': {
        '': 'abs_ acos_ asinh atan atan_ cos_ erf erf_ expm1_ reciprocal sin_ sinh_ square square_ tan tan_',
    },
    'tensor.random': {
        '': 'bernoulli bernoulli_ binomial log_normal log_normal_ multinomial normal normal_ poisson rand rand_like randint randint_like randn randn_like randperm standard_gamma standard_normal uniform',
    },
    'tensor.search': {
        '': 'argsort argwhere bucketize index_sample index_select kthvalue masked_select mode msort nonzero searchsorted sort topk where where_',
    },
    'tensor.stat': {
        '': 'mean median nanmedian nanquantile numel quantile std var',
    },
    'tensor.to_string': {
        '': 'set_printoptions',
    },
    'text.datasets': {
        'text': 'Conll05st Imdb Imikolov Movielens UCIHousing WMT14 WMT16',
    },
    'text.datasets.conll05': {
        'text': 'Conll05st',
    },
    'text.datasets.imdb': {
        'text': 'Imdb',
    },
    'text.datasets.imikolov': {
        'text': 'Imikolov',
    },
    'text.datasets.movielens': {
        'text': 'Movielens',
    },
    'text.datasets.uci_housing': {
        'text': 'UCIHousing',
    },
    'text.datasets.wmt14': {
        'text': 'WMT14',
    },
    'text.datasets.wmt16': {
        'text': 'WMT16',
    },
    'utils.dlpack': {
        '': 'from_dlpack to_dlpack',
    },
    'utils.install_check': {
        'utils': 'run_check',
    },
    'utils.lazy_import': {
        'utils': 'try_import',
    },
    'vision.datasets.cifar': {
        'vision.datasets': 'Cifar10 Cifar100',
    },
    'vision.datasets.flowers': {
        'vision.datasets': 'Flowers',
    },
    'vision.datasets.folder': {
        'vision.datasets': 'DatasetFolder ImageFolder',
    },
    'vision.datasets.mnist': {
        'vision.datasets': 'FashionMNIST MNIST',
    },
    'vision.datasets.voc2012': {
        'vision.datasets': 'VOC2012',
    },
    'vision.image': {
        'vision': 'get_image_backend image_load set_image_backend',
    },
    'vision.models.densenet': {
        'vision.models': 'DenseNet densenet121 densenet161 densenet169 densenet201 densenet264',
    },
    'vision.models.inceptionv3': {
        'vision.models': 'InceptionV3 inception_v3',
    },
    'vision.models.lenet': {
        'vision.models': 'LeNet',
    },
    'vision.models.mobilenetv1': {
        'vision.models': 'MobileNetV1 mobilenet_v1',
    },
    'vision.models.mobilenetv2': {
        'vision.models': 'MobileNetV2 mobilenet_v2',
    },
    'vision.models.mobilenetv3': {
        'vision.models': 'MobileNetV3Large MobileNetV3Small mobilenet_v3_large mobilenet_v3_small',
    },
    'vision.models.resnet': {
        'vision.models': 'ResNet resnet101 resnet152 resnet18 resnet34 resnet50 resnext101_32x4d resnext101_64x4d resnext152_32x4d resnext152_64x4d resnext50_32x4d resnext50_64x4d wide_resnet101_2 wide_resnet50_2',
    },
    'vision.models.shufflenetv2': {
        'vision.models': 'ShuffleNetV2 shufflenet_v2_swish shufflenet_v2_x0_25 shufflenet_v2_x0_33 shufflenet_v2_x0_5 shufflenet_v2_x1_0 shufflenet_v2_x1_5 shufflenet_v2_x2_0',
    },
    'vision.models.squeezenet': {
        'vision.models': 'SqueezeNet squeezenet1_0 squeezenet1_1',
    },
    'vision.models.vgg': {
        'vision.models': 'VGG vgg11 vgg13 vgg16 vgg19',
    },
    'vision.transforms.functional': {
        'vision.transforms': 'adjust_brightness adjust_contrast adjust_hue affine center_crop crop erase hflip normalize pad perspective resize rotate to_grayscale to_tensor vflip',
    },
    'vision.transforms.transforms': {
        'vision.transforms': 'BaseTransform BrightnessTransform CenterCrop ColorJitter Compose ContrastTransform Grayscale HueTransform Normalize Pad RandomAffine RandomCrop RandomErasing RandomHorizontalFlip RandomPerspective RandomResizedCrop RandomRotation RandomVerticalFlip Resize SaturationTransform ToTensor Transpose',
    },
}
